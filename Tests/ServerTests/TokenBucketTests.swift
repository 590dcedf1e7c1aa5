@testable import Server
import Testing

@Suite("Token buckets (rate limits)")
struct TokenBucketTests {
    @Test("a burst is allowed at once, then one request per 1/rate seconds; an idle key refills to the burst, no more")
    func bucket() {
        var bucket = TokenBucket(rate: 2, burst: 3, now: 0)
        #expect((0..<3).map { _ in bucket.take(now: 0) } == [nil, nil, nil])
        #expect(bucket.take(now: 0) == 0.5, "the next token comes in half a second")
        #expect(bucket.take(now: 0.25) == 0.25)
        #expect(bucket.take(now: 0.5) == nil)
        #expect(bucket.take(now: 100) == nil && bucket.tokens == 2, "refilled to the burst, less the one taken")
        #expect(bucket.take(now: 99) == nil, "a clock read out of order takes nothing back")
    }
}
