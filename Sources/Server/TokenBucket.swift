/// A per-key request allowance: `burst` requests at once, refilled at `rate`
/// a second. Pure: the caller passes the time.
struct TokenBucket: Sendable, Equatable {
    let rate: Double
    let burst: Double
    private(set) var tokens: Double
    private(set) var updated: Double

    init(rate: Double, burst: Double, now: Double) {
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.updated = now
    }

    /// Takes one request's token at `now` (seconds); when there is none, the
    /// seconds until there will be one.
    mutating func take(now: Double) -> Double? {
        tokens = min(burst, tokens + max(0, now - updated) * rate)
        updated = max(updated, now)
        guard tokens < 1 else {
            tokens -= 1
            return nil
        }
        return (1 - tokens) / rate
    }
}
