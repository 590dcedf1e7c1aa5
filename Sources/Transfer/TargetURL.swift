/// A URL a client gives Spotter to send to later (a webhook endpoint), checked
/// when it is registered: http(s) only (https unless `allowingHTTP`), no
/// credentials in it, and a host written as an address only when the policy
/// allows it. The address actually connected to is checked again on every
/// transfer (`AddressPolicy`), which also catches host names that resolve inside.
public struct TargetURL: Sendable, Equatable {
    /// The URL as given.
    public let url: String
    /// The URL without query and fragment, for messages.
    public let redacted: String

    public init(_ url: String, allowingHTTP: Bool, policy: AddressPolicy) throws(TransferError) {
        let target = try TransferTarget(url, verb: "deliver to")
        let parsed = try? ParsedURL(url)
        guard let parsed, let host = parsed.host, !host.isEmpty else {
            throw TransferError(.invalidURL, "cannot deliver to \(target.redacted): the URL has no host")
        }
        guard !parsed.hasCredentials else {
            throw TransferError(.invalidURL, "cannot deliver to \(target.redacted): credentials in the URL are not allowed")
        }
        guard parsed.scheme == "https" || allowingHTTP else {
            throw TransferError(.unsupportedScheme, "cannot deliver to \(target.redacted): only https URLs are allowed")
        }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if let address = IPAddress(bare), !policy.allows(address) {
            throw TransferError(
                .refusedAddress, "cannot deliver to \(target.redacted): \(address) is a \(AddressCategory(of: address)) address")
        }
        self.url = url
        redacted = target.redacted
    }
}
