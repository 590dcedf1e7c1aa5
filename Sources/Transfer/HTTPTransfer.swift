/// HTTP and HTTPS transfers through libcurl: downloads of uploaded videos with
/// limits, and POSTs such as webhooks. Every connection is checked against
/// `addressPolicy` after DNS resolution.
///
/// libcurl blocks while it transfers, so each transfer runs on a thread of its
/// own, outside Swift's cooperative pool; cancelling the calling task stops the
/// transfer within about a second and throws `CancellationError`.
public struct HTTPTransfer: Sendable {
    /// The addresses transfers may connect to.
    public var addressPolicy: AddressPolicy
    /// The User-Agent header sent.
    public var userAgent: String
    /// Handles (and their connections) kept between POSTs; copies of this value share them.
    private let handles = ReusedHandles()

    /// Transfers that reach public addresses only unless `addressPolicy` says otherwise.
    public init(addressPolicy: AddressPolicy = .publicOnly, userAgent: String = "Spotter") {
        self.addressPolicy = addressPolicy
        self.userAgent = userAgent
    }

    /// Downloads `url` (http or https) to the file at `path`, following
    /// redirects to http and https only, within `limits`.
    ///
    /// The body goes to a temporary file beside `path`, renamed to `path` once
    /// complete: on any failure nothing is left behind, and an earlier file at
    /// `path` stays as it was.
    /// - Throws: `TransferError`, with `.httpStatus` for any final status other
    ///   than 2xx; `CancellationError` when the task is cancelled.
    public func download(
        from url: String, to path: String, limits: DownloadLimits = DownloadLimits()
    ) async throws -> DownloadResult {
        try Task.checkCancellation()
        let (policy, userAgent) = (addressPolicy, userAgent)
        return try await runOnTransferThread { cancellation in
            try performDownload(
                from: url, to: path, limits: limits, policy: policy, userAgent: userAgent, cancellation: cancellation)
        }
    }

    /// POSTs `body` to `url` (http or https) with `headers`, without following
    /// redirects, and returns the response whatever its status.
    ///
    /// Send a Content-Type among `headers`: without one, libcurl sends
    /// application/x-www-form-urlencoded.
    /// - Parameters:
    ///   - timeout: The longest the whole request may take, connecting included.
    ///   - responseBodyLimit: The most response body bytes kept; reading stops there.
    /// - Throws: `TransferError` when no complete response arrives, or a
    ///   header is invalid; `CancellationError` when the task is cancelled.
    public func post(
        to url: String, headers: [(name: String, value: String)] = [], body: [UInt8], timeout: Duration = .seconds(10),
        responseBodyLimit: Int = 64 * 1024
    ) async throws -> HTTPResponse {
        try Task.checkCancellation()
        let (policy, userAgent, handles) = (addressPolicy, userAgent, handles)
        return try await runOnTransferThread { cancellation in
            try performPost(
                to: url, headers: headers, body: body, timeout: timeout, responseBodyLimit: responseBodyLimit,
                policy: policy, userAgent: userAgent, cancellation: cancellation, handles: handles)
        }
    }
}
