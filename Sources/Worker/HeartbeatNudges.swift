import Synchronization

/// Wakes a running job's heartbeat early: when the queue asks a job's worker to
/// stop (a cancellation, `JobQueue.cancelChannel`), the job's next heartbeat —
/// which learns of it and stops the work — comes at once instead of at the end
/// of its interval.
final class HeartbeatNudges: Sendable {
    private struct Entry {
        /// A nudge that came while nobody was waiting: the next wait ends at once.
        var pending = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let entries = Mutex<[Int64: Entry]>([:])

    /// Ends the current (or next) heartbeat wait of job `id`.
    func nudge(_ id: Int64) {
        let waiter = entries.withLock { entries -> CheckedContinuation<Void, Never>? in
            guard let waiter = entries[id]?.waiter else {
                entries[id, default: Entry()].pending = true
                return nil
            }
            entries[id]?.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Waits `interval`, or less if job `id` is nudged; throws `CancellationError` when cancelled.
    func wait(_ id: Int64, upTo interval: Duration) async throws {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: interval) }
            group.addTask { await self.nudged(id) }
            await group.next()
            group.cancelAll()
        }
        try Task.checkCancellation()
    }

    /// Forgets job `id` (it ended).
    func remove(_ id: Int64) {
        let waiter = entries.withLock { $0.removeValue(forKey: id)?.waiter }
        waiter?.resume()
    }

    private func nudged(_ id: Int64) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = entries.withLock { entries -> Bool in
                    if entries[id]?.pending == true || Task.isCancelled {
                        entries[id]?.pending = false
                        return true
                    }
                    entries[id, default: Entry()].waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = entries.withLock { entries -> CheckedContinuation<Void, Never>? in
                let waiter = entries[id]?.waiter
                entries[id]?.waiter = nil
                return waiter
            }
            waiter?.resume()
        }
    }
}
