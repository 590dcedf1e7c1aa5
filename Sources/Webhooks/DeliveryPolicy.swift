import Foundation

/// What one delivery attempt's outcome means for the delivery and its endpoint. Pure.
///
/// Success is a 2xx answer; anything else is a failure (3xx included: redirects
/// are not followed). `410 Gone` disables the endpoint. Failures are retried
/// after about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h (each
/// ±20 %, so that a fleet's retries spread out), `Retry-After` taking the place
/// of the wait on 429 and 503; after the last the delivery is dead. An endpoint
/// that has failed every attempt for `disableAfter` is disabled.
public struct DeliveryPolicy: Sendable {
    /// The waits after the first, second, … failed attempt.
    public var retryWaits: [TimeInterval] = [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400]
    /// The share a wait varies by, either way.
    public var jitter = 0.2
    /// An endpoint failing this long without a success is disabled.
    public var disableAfter: TimeInterval = 5 * 86_400
    /// The longest `Retry-After` honoured (a receiver cannot park a delivery for longer than the last wait).
    public var longestRetryAfter: TimeInterval = 86_400

    public init() {}

    /// How one attempt ended.
    public enum Outcome: Sendable, Equatable {
        /// An HTTP answer with this status, and its `Retry-After` header if any.
        case answered(status: Int, retryAfter: String?)
        /// No answer: refused address, no connection, timeout, broken connection.
        case noAnswer(reason: String)
    }

    /// What happens next.
    public enum Decision: Sendable, Equatable {
        case delivered
        /// Try again at this time.
        case retry(at: Date, reason: String)
        /// No more attempts.
        case dead(reason: String)
        /// The endpoint is disabled (and this delivery with it).
        case disableEndpoint(reason: String)
    }

    /// The decision after attempt number `attempt` (from 1) ended with `outcome`,
    /// at `now`, for an endpoint failing since `failingSince` (nil when its last attempt succeeded).
    public func decide(
        _ outcome: Outcome, attempt: Int, now: Date, failingSince: Date?, random: inout some RandomNumberGenerator
    ) -> Decision {
        let reason: String
        var retryAfter: TimeInterval?
        switch outcome {
        case .answered(let status, _) where (200..<300).contains(status):
            return .delivered
        case .answered(410, _):
            return .disableEndpoint(reason: "the receiver answered 410 Gone")
        case .answered(let status, let header):
            reason = (300..<400).contains(status) ? "the receiver answered \(status) (redirects are not followed)" : "the receiver answered \(status)"
            if status == 429 || status == 503 { retryAfter = header.flatMap { Self.retryAfter($0, now: now) } }
        case .noAnswer(let why):
            reason = why
        }
        if let failingSince, now.timeIntervalSince(failingSince) >= disableAfter {
            return .disableEndpoint(reason: "every delivery failed for \(Int(disableAfter / 86_400)) days; the last: \(reason)")
        }
        guard attempt <= retryWaits.count else { return .dead(reason: "\(attempt) attempts failed; the last: \(reason)") }
        let base = retryWaits[attempt - 1]
        let wait = retryAfter.map { min($0, longestRetryAfter) } ?? base * Double.random(in: (1 - jitter)...(1 + jitter), using: &random)
        return .retry(at: now.addingTimeInterval(wait), reason: reason)
    }

    /// `Retry-After` in seconds from `now`: delay-seconds or an HTTP date; nil when unreadable.
    static func retryAfter(_ value: String, now: Date) -> TimeInterval? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(text), seconds >= 0 { return TimeInterval(seconds) }
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "GMT")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return format.date(from: text).map { max(0, $0.timeIntervalSince(now)) }
    }
}
