import Foundation

// How Spotter runs C code that blocks its thread (libav, MediaPipe, libcurl,
// libpq, waiting on a child process), never on Swift's cooperative pool, whose
// few threads would otherwise stall every other task:
//
// - Calls, which run to completion and return a value — opening a video,
//   loading the models, decoding an image, an HTTP transfer — go to
//   `BlockingPool.shared`: a fixed set of threads taking work in order. At
//   most that many calls block at once; the rest wait their turn holding no
//   thread.
// - Streams, which block for the life of a thing — a video's decoding loop, a
//   child process's pipes and its exit — get a thread of their own that ends
//   with the thing (`onDedicatedThread`, `startDedicatedThread`). They are
//   bounded by how many such things there can be at once (the analyses a
//   process runs, the worker's `concurrency`), never by requests; in the shared
//   pool they could take every thread and starve the calls they wait on.
// - Handles that only one thread may use at a time (a libpq connection, a
//   MediaPipe task) keep a serial queue of their own, bounded by the handles:
//   a connection pool's size, one landmarker pair per analysis.

/// A fixed set of threads for blocking calls; see above.
public final class BlockingPool: Sendable {
    /// The process's pool: as many threads as the machine has cores, at least four.
    public static let shared = BlockingPool(threads: max(4, ProcessInfo.processInfo.activeProcessorCount), name: "spotter.blocking")

    /// How many calls may block at once.
    public let threads: Int
    private let work = WorkQueue()

    public init(threads: Int, name: String) {
        precondition(threads > 0, "a pool has at least one thread")
        self.threads = threads
        for index in 0..<threads {
            let thread = Thread { [work] in
                while true { work.next()() }
            }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    /// Runs blocking `body` on one of the pool's threads, in turn, and returns what it returns.
    public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            work.add { continuation.resume(with: Result { try body() }) }
        }
    }
}

/// Work waiting for a pool thread, first in first out.
private final class WorkQueue: @unchecked Sendable {
    // `items` is only touched while `condition` is locked.
    private let condition = NSCondition()
    private var items: [@Sendable () -> Void] = []
    private var head = 0

    func add(_ item: @escaping @Sendable () -> Void) {
        condition.lock()
        items.append(item)
        condition.signal()
        condition.unlock()
    }

    /// The next item, waiting until there is one.
    func next() -> @Sendable () -> Void {
        condition.lock()
        defer { condition.unlock() }
        while head == items.count { condition.wait() }
        let item = items[head]
        head += 1
        if head > 1024, head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        return item
    }
}

/// Runs blocking, throwing `body` on the shared pool (a call; see above).
public func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await BlockingPool.shared.run(body)
}

/// Runs `body`, which blocks for the life of a stream, on a new thread of its own and returns its value.
public func onDedicatedThread<T: Sendable>(_ name: String, _ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        startDedicatedThread(name) { continuation.resume(returning: body()) }
    }
}

/// Starts `body`, which blocks for the life of a stream, on a new thread of its own.
public func startDedicatedThread(_ name: String, _ body: @escaping @Sendable () -> Void) {
    let thread = Thread(block: body)
    thread.name = name
    thread.start()
}
