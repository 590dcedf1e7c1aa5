/// Limits on one download, so that a slow, stalled or huge response cannot
/// hold a worker or fill its disk.
public struct DownloadLimits: Hashable, Sendable {
    /// The most body bytes accepted. A response whose Content-Length says more
    /// is refused before its body; one without stops as soon as it exceeds this.
    public var maxBytes: Int64
    /// The longest wait for a connection, DNS and TLS included.
    public var connectTimeout: Duration
    /// The longest the whole download may take, redirects included.
    public var totalTimeout: Duration
    /// The slowest transfer tolerated, or `nil` for no such limit.
    public var lowSpeed: LowSpeedLimit?
    /// The most redirects followed; 0 refuses any redirect.
    public var maxRedirects: Int

    /// Limits with defaults for uploaded videos: 4 GiB, 10 s to connect,
    /// 30 min in all, at least 1 KiB/s over any 30 s, 5 redirects.
    public init(
        maxBytes: Int64 = 4 << 30, connectTimeout: Duration = .seconds(10), totalTimeout: Duration = .seconds(30 * 60),
        lowSpeed: LowSpeedLimit? = LowSpeedLimit(bytesPerSecond: 1024, seconds: 30), maxRedirects: Int = 5
    ) {
        self.maxBytes = maxBytes
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.lowSpeed = lowSpeed
        self.maxRedirects = maxRedirects
    }
}

/// A transfer slower than `bytesPerSecond` for `seconds` in a row is stopped.
public struct LowSpeedLimit: Hashable, Sendable {
    /// The speed under which the transfer counts as stalled.
    public var bytesPerSecond: Int
    /// How long, in whole seconds, it may stay under that speed.
    public var seconds: Int

    public init(bytesPerSecond: Int, seconds: Int) {
        self.bytesPerSecond = bytesPerSecond
        self.seconds = seconds
    }
}

/// A finished download.
public struct DownloadResult: Hashable, Sendable {
    /// The size of the file written.
    public var bytes: Int64
    /// The URL the body came from, after redirects. It may hold credentials or
    /// a query with secrets: log `redactedURL(finalURL)`.
    public var finalURL: String
    /// The status of the final response, 2xx.
    public var httpStatus: Int
    /// The Content-Type of the final response, if it had one.
    public var contentType: String?
}

/// The whole milliseconds of `duration`, rounded up, at least 1: libcurl
/// takes 0 to mean no timeout at all.
func curlMilliseconds(_ duration: Duration) -> Int {
    let (seconds, attoseconds) = duration.components
    let milliseconds = Int(seconds) * 1000 + Int((attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    return max(1, milliseconds)
}
