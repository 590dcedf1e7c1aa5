import Foundation

// Blocking C work — MediaPipe's model loading and image decoding, waiting for a
// child process and reading its pipes — runs on a thread of its own, never on
// Swift's cooperative pool, whose few threads would otherwise stall every other
// task. The landmarkers' detections run on each landmarker's own queue
// (`VisionTaskRunner`), libpq on each connection's queue.

/// Runs `body` on a new thread of its own, for work that blocks.
public func onDedicatedThread<T: Sendable>(_ name: String, _ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.name = name
        thread.start()
    }
}

/// Runs blocking, throwing `body` on a new thread of its own.
public func offThePool<T: Sendable>(_ name: String, _ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await onDedicatedThread(name) { Result { try body() } }.get()
}
