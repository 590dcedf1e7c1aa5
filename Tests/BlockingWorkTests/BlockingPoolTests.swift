import BlockingWork
import Foundation
import Synchronization
import Testing

@Suite("Blocking calls off the cooperative pool")
struct BlockingPoolTests {
    final class Counts: Sendable {
        private let counts = Mutex((now: 0, most: 0))
        var most: Int { counts.withLock { $0.most } }

        func enter() { counts.withLock { $0.now += 1; $0.most = max($0.most, $0.now) } }
        func leave() { counts.withLock { $0.now -= 1 } }
    }

    @Test("no more calls block at once than the pool has threads; every call returns its own value, in turn")
    func bounded() async throws {
        let pool = BlockingPool(threads: 2, name: "test-pool")
        let counts = Counts()
        let values = try await withThrowingTaskGroup(of: Int.self) { group in
            for value in 0..<10 {
                group.addTask {
                    try await pool.run {
                        counts.enter()
                        defer { counts.leave() }
                        usleep(30_000)  // a blocking C call
                        return value
                    }
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(values.sorted() == Array(0..<10))
        #expect(counts.most == 2, "two threads, ten calls: \(counts.most) at once")
    }

    struct Refusal: Error, Equatable {}

    @Test("a call's error reaches its caller, and the pool goes on")
    func errors() async throws {
        let pool = BlockingPool(threads: 1, name: "test-pool-errors")
        await #expect(throws: Refusal.self) { try await pool.run { throw Refusal() } }
        #expect(try await pool.run { 42 } == 42)
    }

    @Test("a stream's thread is its own: a pool with every thread busy does not hold it up")
    func streams() async throws {
        let pool = BlockingPool(threads: 1, name: "test-pool-streams")
        let release = DispatchSemaphore(value: 0)
        let busy = Task { try await pool.run { release.wait() } }
        let streamed = await onDedicatedThread("test-stream") { "read to its end" }
        #expect(streamed == "read to its end")
        release.signal()
        try await busy.value
    }
}
