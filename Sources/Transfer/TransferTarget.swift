internal import CCurl

/// The URL of one transfer, checked before libcurl sees it, with what the
/// transfer's messages say about it: "cannot download https://example.com/v.mp4: …".
struct TransferTarget {
    let url: String
    /// The URL without credentials and query, for messages.
    let redacted: String
    /// What the transfer does, as in "cannot download" and "cannot POST to".
    let verb: String

    /// Refuses a URL libcurl cannot parse and schemes other than http and https.
    init(_ url: String, verb: String) throws(TransferError) {
        self.url = url
        self.verb = verb
        let parsed: ParsedURL
        do {
            parsed = try ParsedURL(url)
        } catch {
            redacted = redactedURL(url)
            throw TransferError(.invalidURL, "cannot \(verb) \(redacted): not a valid URL", curlMessage: error.reason)
        }
        redacted = parsed.redacted ?? redactedURL(url)
        guard let scheme = parsed.scheme, scheme == "http" || scheme == "https" else {
            throw TransferError(.unsupportedScheme, "cannot \(verb) \(redacted): only http and https URLs are allowed")
        }
    }

    /// "cannot `verb` `redacted`: `reason`", with libcurl's code and words if given.
    func error(
        _ code: TransferError.Code, _ reason: String, httpStatus: Int? = nil, curlCode: CURLcode? = nil,
        easy: CurlEasy? = nil, file: String = #fileID, line: Int = #line
    ) -> TransferError {
        TransferError(
            code, "cannot \(verb) \(redacted): \(reason)", httpStatus: httpStatus,
            curlCode: curlCode.map { Int($0.rawValue) }, curlMessage: curlCode.flatMap { easy?.describe($0) },
            file: file, line: line)
    }

    /// The error for connections the policy refused: "refused to connect to
    /// 127.0.0.1 (loopback): cannot download …, the address policy allows public addresses only".
    func refusal(of addresses: [IPAddress], policy: AddressPolicy, curlCode: CURLcode, easy: CurlEasy) -> TransferError {
        var unique = [IPAddress]()
        for address in addresses where !unique.contains(address) { unique.append(address) }
        let list = unique.map { "\($0) (\(AddressCategory(of: $0)))" }.joined(separator: ", ")
        let allowed = ["public"] + AddressCategory.allCases.filter(policy.allowedCategories.contains).map(\.description)
        return TransferError(
            .refusedAddress,
            "refused to connect to \(list): cannot \(verb) \(redacted), the address policy allows "
                + "\(allowed.joined(separator: " and ")) addresses only",
            clientMessage: "cannot \(verb) \(redacted): its host is not at an address this server may reach",
            curlCode: Int(curlCode.rawValue), curlMessage: easy.describe(curlCode))
    }

    /// The error for libcurl's `code` after a failed transfer.
    func error(for code: CURLcode, easy: CurlEasy) -> TransferError {
        switch code {
        case CURLE_HTTP_RETURNED_ERROR:
            let status: Int = easy.info(CURLINFO_RESPONSE_CODE) ?? 0
            return error(.httpStatus, "the server answered HTTP \(status)", httpStatus: status, curlCode: code, easy: easy)
        case CURLE_UNSUPPORTED_PROTOCOL:
            // The URL is checked before the transfer, so this is a redirect, which
            // libcurl has made the effective URL before refusing it.
            let location = (easy.info(CURLINFO_EFFECTIVE_URL) as String?).map(redactedURL) ?? "another scheme"
            return error(.unsupportedScheme, "redirected to \(location); only http and https are allowed", curlCode: code, easy: easy)
        case CURLE_URL_MALFORMAT:
            return error(.invalidURL, "not a valid URL, or redirected to one", curlCode: code, easy: easy)
        case CURLE_COULDNT_RESOLVE_HOST:
            return error(.couldNotResolve, "could not resolve the host", curlCode: code, easy: easy)
        case CURLE_COULDNT_CONNECT:
            return error(.couldNotConnect, "could not connect", curlCode: code, easy: easy)
        case CURLE_OPERATION_TIMEDOUT:
            return error(.timedOut, "timed out", curlCode: code, easy: easy)
        case CURLE_TOO_MANY_REDIRECTS:
            return error(.tooManyRedirects, "too many redirects", curlCode: code, easy: easy)
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return error(.connectionLost, "the connection broke before the response was complete", curlCode: code, easy: easy)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            return error(.tls, "TLS failed", curlCode: code, easy: easy)
        default:
            return error(.failed, "the transfer failed", curlCode: code, easy: easy)
        }
    }
}
