/// Which addresses a transfer may connect to, checked on every connection
/// after DNS resolution, so that a host name that resolves (or re-resolves)
/// to an internal address is refused like the address itself.
///
/// Public addresses are always allowed; the default refuses everything else,
/// which keeps a URL from a user away from this host, the private network and
/// the cloud metadata service. Proxies from the environment are not used, so
/// the check sees the server's own address.
public struct AddressPolicy: Hashable, Sendable {
    /// The categories allowed besides `.public`.
    public var allowedCategories: Set<AddressCategory>

    /// A policy allowing public addresses and those of `categories`.
    public init(allowing categories: Set<AddressCategory> = []) {
        allowedCategories = categories
    }

    /// Public addresses only: the policy for URLs from users.
    public static let publicOnly = AddressPolicy()

    /// Public and loopback addresses: for development and tests against a
    /// server on this host.
    public static let allowingLoopback = AddressPolicy(allowing: [.loopback])

    /// Public, loopback and private addresses: for development against servers
    /// on this host and its network. Never link-local: that is where the cloud
    /// metadata service answers (169.254.169.254).
    public static let allowingPrivateNetworks = AddressPolicy(allowing: [.loopback, .private])

    /// Whether a connection to `address` is allowed.
    public func allows(_ address: IPAddress) -> Bool {
        let category = AddressCategory(of: address)
        return category == .public || allowedCategories.contains(category)
    }
}
