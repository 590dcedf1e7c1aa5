import Foundation
import Hummingbird
import Synchronization

/// Per-key rate limits: each key's requests beyond its allowance are answered
/// 429 with `Retry-After` (whole seconds), before any work is done for them.
final class RateLimiting: RouterMiddleware, Sendable {
    typealias Context = APIRequestContext

    private let rate: Double
    private let burst: Double
    private let buckets = Mutex<[UUID: TokenBucket]>([:])
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant

    /// `rate` requests a second per key, `burst` at once.
    init(rate: Double, burst: Double) {
        self.rate = rate
        self.burst = burst
        self.start = clock.now
    }

    func handle(
        _ request: Request, context: APIRequestContext, next: (Request, APIRequestContext) async throws -> Response
    ) async throws -> Response {
        guard let key = context.key else { throw APIProblem.unauthorized }
        let elapsed = start.duration(to: clock.now)
        let now = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let wait = buckets.withLock { buckets in
            var bucket = buckets[key.id] ?? TokenBucket(rate: rate, burst: burst, now: now)
            defer { buckets[key.id] = bucket }
            return bucket.take(now: now)
        }
        if let wait {
            var response = APIProblem("rate-limited", .tooManyRequests, "Too many requests for this key",
                                      detail: "at most \(String(format: "%g", rate)) a second (\(String(format: "%g", burst)) at once)").response()
            response.headers[.retryAfter] = String(max(1, Int(wait.rounded(.up))))
            return response
        }
        return try await next(request, context)
    }
}
