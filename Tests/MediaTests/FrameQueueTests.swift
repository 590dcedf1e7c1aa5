import Foundation
@testable import Media
import Synchronization
import Testing

@Suite("Bounded hand-over from the decoding thread")
struct FrameQueueTests {
    /// Waits until `condition` holds (polling; at most 10 s), instead of sleeping a guessed time.
    func eventually(_ what: String, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("never: \(what)")
                return
            }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    @Test("the producer waits while the queue is full, and items arrive in order")
    func backPressure() async throws {
        let queue = FrameQueue<Int>(capacity: 2)
        let produced = Atomic(0)
        let producer = Thread {
            for item in 0..<10 {
                guard queue.put(item) else { return }
                produced.add(1, ordering: .relaxed)
            }
            queue.finish()
        }
        producer.start()
        try await eventually("the producer waits for room") { queue.waitingSides.producer }
        #expect(produced.load(ordering: .relaxed) == 2, "two items fit; the third put waits")
        var received = [Int]()
        while let item = try await queue.next() { received.append(item) }
        #expect(received == Array(0..<10))
    }

    @Test("closing from the consumer side releases a waiting producer")
    func close() async throws {
        let queue = FrameQueue<Int>(capacity: 1)
        let refused = Mutex<Bool?>(nil)
        let producer = Thread {
            _ = queue.put(1)
            let accepted = queue.put(2)  // waits: the queue is full
            refused.withLock { $0 = !accepted }
        }
        producer.start()
        try await eventually("the producer waits for room") { queue.waitingSides.producer }
        queue.close()
        try await eventually("the producer's put returns") { refused.withLock { $0 } != nil }
        #expect(refused.withLock { $0 } == true)
        #expect(try await queue.next() == nil)
    }

    @Test("the producer's error reaches the consumer after the items before it")
    func error() async throws {
        struct Broken: Error {}
        let queue = FrameQueue<Int>(capacity: 4)
        #expect(queue.put(1))
        queue.finish(throwing: Broken())
        #expect(try await queue.next() == 1)
        await #expect(throws: Broken.self) { try await queue.next() }
    }

    @Test("a consumer waiting on an empty queue is woken by the next item")
    func waiting() async throws {
        let queue = FrameQueue<Int>(capacity: 1)
        async let first = queue.next()
        try await eventually("the consumer waits") { queue.waitingSides.consumer }
        #expect(queue.put(42))
        #expect(try await first == 42)
    }
}
