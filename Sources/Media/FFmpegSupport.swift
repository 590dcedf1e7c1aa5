internal import CFFmpeg
internal import CFFmpegShims

/// libav's description of an error code.
func describeFFmpegError(_ code: Int32) -> String {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { buffer in
        String(cString: CFFmpeg_describeError(code, buffer.baseAddress!, buffer.count))
    }
}

extension AVRational {
    /// The value as a `Double`, or `nil` for 0/0, x/0 and 0/x.
    var positiveValue: Double? {
        guard num > 0, den > 0 else { return nil }
        return Double(num) / Double(den)
    }
}

let noTimestamp = CFFmpeg_noTimestamp()

/// libav's log. Quiet unless `verbose`; error lines are kept per thread so that
/// messages can quote what libav said, such as "moov atom not found".
public enum LibavLog {
    private static let routed: Void = CFFmpeg_routeLog(AV_LOG_QUIET)

    /// Prints libav's warnings and errors on standard error when `verbose`.
    public static func configure(verbose: Bool) {
        CFFmpeg_routeLog(verbose ? AV_LOG_WARNING : AV_LOG_QUIET)
    }

    /// Routes the log (once), then runs `body` with this thread's error line cleared.
    static func capturing<T>(_ body: () throws -> T) rethrows -> T {
        _ = routed
        CFFmpeg_clearLastError()
        return try body()
    }

    /// The last error libav logged on this thread, if any.
    static var lastError: String? {
        let message = String(cString: CFFmpeg_lastError())
        return message.isEmpty ? nil : message
    }
}
