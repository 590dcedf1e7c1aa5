internal import CCurl

/// `url` fit for messages and logs: without the credentials of `user:password@`,
/// the query and the fragment, which may carry secrets such as signed tokens.
/// "https://user:secret@example.com/v.mp4?token=abc" becomes
/// "https://example.com/v.mp4". libcurl's parser reads the URL, as it does for
/// the transfer; a URL it cannot parse becomes its scheme and "://…" alone.
public func redactedURL(_ url: String) -> String {
    (try? ParsedURL(url))?.redacted ?? unparseableURL(url)
}

/// A URL as libcurl's parser reads it: its scheme and its text without secrets.
struct ParsedURL {
    /// The scheme, lowercased.
    let scheme: String?
    /// The URL without user, password, login options, query and fragment.
    let redacted: String?
    /// The host as libcurl reads it (an IPv6 address in brackets), lowercased.
    let host: String?
    /// Whether the URL carries a user name or password.
    let hasCredentials: Bool

    /// Parses `text`, allowing schemes libcurl does not support so that they
    /// can be refused by name; throws libcurl's reason for a text it cannot parse.
    init(_ text: String) throws(ParseFailure) {
        guard let handle = curl_url() else { throw ParseFailure(reason: "out of memory") }
        defer { curl_url_cleanup(handle) }
        let status = curl_url_set(handle, CURLUPART_URL, text, UInt32(CURLU_NON_SUPPORT_SCHEME))
        guard status == CURLUE_OK else { throw ParseFailure(reason: String(cString: curl_url_strerror(status))) }
        scheme = Self.part(CURLUPART_SCHEME, of: handle)?.lowercased()
        host = Self.part(CURLUPART_HOST, of: handle)?.lowercased()
        hasCredentials = Self.part(CURLUPART_USER, of: handle) != nil || Self.part(CURLUPART_PASSWORD, of: handle) != nil
        for secret in [CURLUPART_USER, CURLUPART_PASSWORD, CURLUPART_OPTIONS, CURLUPART_QUERY, CURLUPART_FRAGMENT] {
            curl_url_set(handle, secret, nil, 0)
        }
        redacted = Self.part(CURLUPART_URL, of: handle)
    }

    struct ParseFailure: Error {
        let reason: String
    }

    private static func part(_ part: CURLUPart, of handle: OpaquePointer) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard curl_url_get(handle, part, &value, 0) == CURLUE_OK, let value else { return nil }
        defer { curl_free(value) }
        return String(cString: value)
    }
}

/// The scheme of a URL libcurl cannot parse, followed by "://…", since the
/// rest may hold credentials that the parser could not find.
private func unparseableURL(_ url: String) -> String {
    guard let end = url.range(of: "://"),
        url[..<end.lowerBound].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
    else { return "(not a URL)" }
    return url[..<end.lowerBound] + "://…"
}
