import Synchronization

/// Easy handles kept between POSTs, so that the next POST to the same server
/// reuses the connection libcurl keeps in the handle instead of opening one
/// (webhook deliveries to one receiver, one after another). A handle is used
/// by one transfer at a time, taken from here and given back when it ends;
/// handles are kept apart by address policy, so that a connection opened
/// under one policy never serves a transfer under another (and the policy is
/// checked again on every reuse, when libcurl reports the connection).
final class ReusedHandles: Sendable {
    /// The most idle handles kept per policy.
    static let idleLimit = 32

    private let idle = Mutex<[AddressPolicy: [IdleHandle]]>([:])

    /// An idle handle. `@unchecked Sendable`: a handle is here only while no
    /// transfer uses it, and leaves (to one thread) before it is used again.
    private struct IdleHandle: @unchecked Sendable {
        let easy: CurlEasy
    }

    /// An idle handle for `policy`, reset, or a new one.
    func take(for policy: AddressPolicy) throws(TransferError) -> CurlEasy {
        let reused = idle.withLock { $0[policy]?.popLast() }?.easy
        guard let reused else { return try CurlEasy() }
        try reused.reset()
        return reused
    }

    /// Keeps `handle` for the next transfer under `policy` (up to `idleLimit`).
    func giveBack(_ handle: CurlEasy, for policy: AddressPolicy) {
        let kept = IdleHandle(easy: handle)
        idle.withLock { idle in
            if idle[policy, default: []].count < Self.idleLimit { idle[policy, default: []].append(kept) }
        }
    }
}
