import Contracts

/// A failed HTTP transfer: the URL is unusable or refused, the server is
/// unreachable or answered with an error, or the transfer broke a limit.
///
/// `message` names the URL (without credentials or query) and the reason and
/// is safe to show; `curlCode` and `curlMessage` carry what libcurl reported,
/// when it reported something. `isRetryable` tells whether the same request
/// may succeed later.
public struct TransferError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in kinds a caller can act on.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        enum Base: String, Hashable, Sendable {
            case invalidURL
            case unsupportedScheme
            case invalidHeader
            case refusedAddress
            case couldNotResolve
            case couldNotConnect
            case timedOut
            case connectionLost
            case httpStatus
            case tooLarge
            case tooManyRedirects
            case tls
            case fileSystem
            case failed
        }

        let base: Base

        /// Not a URL libcurl can use, or one without a host.
        public static let invalidURL = Code(base: .invalidURL)
        /// A scheme other than http and https, in the URL or in a redirect.
        public static let unsupportedScheme = Code(base: .unsupportedScheme)
        /// A request header with an invalid name, or a line break in its value.
        public static let invalidHeader = Code(base: .invalidHeader)
        /// Every address of the host is one the `AddressPolicy` refuses.
        public static let refusedAddress = Code(base: .refusedAddress)
        /// The host name did not resolve.
        public static let couldNotResolve = Code(base: .couldNotResolve)
        /// No connection: refused, unreachable.
        public static let couldNotConnect = Code(base: .couldNotConnect)
        /// Over the connect or total timeout, or slower than the low-speed limit.
        public static let timedOut = Code(base: .timedOut)
        /// The connection broke or closed before the response was complete.
        public static let connectionLost = Code(base: .connectionLost)
        /// The server answered with a status other than 2xx; see `httpStatus`.
        public static let httpStatus = Code(base: .httpStatus)
        /// The body is larger than the limit, by its Content-Length or as it arrived.
        public static let tooLarge = Code(base: .tooLarge)
        /// More redirects than the limit allows.
        public static let tooManyRedirects = Code(base: .tooManyRedirects)
        /// The TLS handshake failed or the server's certificate did not verify.
        public static let tls = Code(base: .tls)
        /// The destination file could not be created, written or moved into place.
        public static let fileSystem = Code(base: .fileSystem)
        /// Any other failure libcurl reports.
        public static let failed = Code(base: .failed)

        public var description: String { base.rawValue }
    }

    public var code: Code
    /// "cannot download https://example.com/v.mp4: the server answered HTTP 404".
    public var message: String
    /// The status the server answered with, for `.httpStatus`.
    public var httpStatus: Int?
    /// libcurl's CURLcode, if libcurl reported one.
    public var curlCode: Int?
    /// libcurl's words for the failure: its error buffer, else its description of `curlCode`.
    public var curlMessage: String?
    /// What clients may read where `message` says more than they should (the
    /// internal addresses a host resolved to); nil when `message` is safe.
    public var clientMessage: String?
    /// Where in Transfer the error was raised.
    public var file: String
    public var line: Int

    init(
        _ code: Code, _ message: String, clientMessage: String? = nil, httpStatus: Int? = nil, curlCode: Int? = nil,
        curlMessage: String? = nil, file: String = #fileID, line: Int = #line
    ) {
        self.code = code
        self.message = message
        self.clientMessage = clientMessage
        self.httpStatus = httpStatus
        self.curlCode = curlCode
        self.curlMessage = curlMessage
        self.file = file
        self.line = line
    }

    /// Whether the same request may succeed later: timeouts, failures to
    /// resolve, connect or finish, and the statuses 408, 429 and 5xx. Refused
    /// addresses, bad URLs, other 4xx statuses and bodies over the limit are permanent.
    public var isRetryable: Bool {
        switch code {
        case .timedOut, .couldNotResolve, .couldNotConnect, .connectionLost: true
        case .httpStatus: httpStatus.map(TransferError.isRetryableStatus) ?? false
        default: false
        }
    }

    /// Whether a response with `status` may be worth repeating the request
    /// for: 408 Request Timeout, 429 Too Many Requests and 5xx.
    public static func isRetryableStatus(_ status: Int) -> Bool {
        status == 408 || status == 429 || (500...599).contains(status)
    }

    public var description: String {
        guard let curlMessage else { return message }
        return "\(message) (curl: \(curlMessage))"
    }
}

extension TransferError: DescribedFailure {
    public var failureKind: FailureKind { isRetryable ? .unavailable : .badInput }
    public var safeMessage: String { clientMessage ?? description }
    public var operatorMessage: String { description }
}
