import Foundation

/// A bounded hand-over from the decoding thread to an async consumer: the
/// producer blocks while the queue is full (back-pressure); the consumer
/// suspends while it is empty. Either side may end it: the producer with
/// `finish`, the consumer with `close`, after which `put` returns false.
///
/// All state is guarded by `condition`, which is why this class may be
/// `@unchecked Sendable`.
final class FrameQueue<Element: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private let capacity: Int
    private var items: [Element] = []
    private var waiting: CheckedContinuation<Element?, any Error>?
    private var ending: Result<Void, any Error>?
    private var closed = false
    private var producerWaiting = false

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Hands `item` over, waiting while the queue is full; false once the consumer has closed it.
    func put(_ item: Element) -> Bool {
        condition.lock()
        while items.count >= capacity, !closed {
            producerWaiting = true
            condition.wait()
        }
        producerWaiting = false
        guard !closed else {
            condition.unlock()
            return false
        }
        if let consumer = waiting {
            waiting = nil
            condition.unlock()
            consumer.resume(returning: item)
        } else {
            items.append(item)
            condition.unlock()
        }
        return true
    }

    /// Ends the queue after the items already in it, with `error` if any.
    func finish(throwing error: (any Error)? = nil) {
        condition.lock()
        ending = error.map { .failure($0) } ?? .success(())
        let consumer = items.isEmpty ? waiting : nil
        if consumer != nil { waiting = nil }
        condition.unlock()
        if let consumer {
            if let error { consumer.resume(throwing: error) } else { consumer.resume(returning: nil) }
        }
    }

    /// Whether the producer is waiting for room, and whether a consumer is waiting
    /// for an item: what the two sides are doing, for tests that must not guess by sleeping.
    var waitingSides: (producer: Bool, consumer: Bool) {
        condition.lock()
        defer { condition.unlock() }
        return (producerWaiting, waiting != nil)
    }

    /// Abandons the queue from the consumer's side; the producer's next `put` returns false.
    func close() {
        condition.lock()
        closed = true
        items.removeAll()
        let consumer = waiting
        waiting = nil
        condition.broadcast()
        condition.unlock()
        consumer?.resume(returning: nil)
    }

    /// The next item, or nil at the end; rethrows the producer's error.
    func next() async throws -> Element? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                condition.lock()
                if !items.isEmpty {
                    let item = items.removeFirst()
                    condition.signal()
                    condition.unlock()
                    continuation.resume(returning: item)
                } else if closed {
                    condition.unlock()
                    continuation.resume(returning: nil)
                } else if let ending {
                    condition.unlock()
                    continuation.resume(with: ending.map { nil })
                } else {
                    waiting = continuation
                    condition.unlock()
                }
            }
        } onCancel: {
            close()
        }
    }
}
