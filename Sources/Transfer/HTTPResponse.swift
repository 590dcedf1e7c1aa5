/// The response to a POST.
public struct HTTPResponse: Sendable {
    /// The HTTP status, whatever it is: a POST does not fail on 4xx or 5xx.
    public var status: Int
    /// The response's headers in the order received.
    public var headers: [(name: String, value: String)]
    /// The body, up to the response body limit.
    public var body: [UInt8]
    /// Whether the body went on past the limit and was cut there.
    public var bodyWasTruncated: Bool

    /// The value of the first header named `name`, ignoring case.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }
}
