internal import CMediaPipe
import Synchronization

/// One live-stream result, or the error MediaPipe reported for a frame.
public typealias LiveStreamOutput<Result: Sendable> = Swift.Result<Result, LandmarkerError>

/// A claimed C callback slot (see `CMediaPipe_claimSlot`), released in `deinit`.
///
/// The slot holds an unretained pointer to `receiver`, which this object keeps
/// alive; releasing the slot waits for a callback under way, so the receiver is
/// never used after it is gone. Hence `@unchecked Sendable`.
final class LiveStreamSlot: @unchecked Sendable {
    private final class Receiver {
        let receive: (MpStatus, UnsafeRawPointer?, Int64) -> Void
        init(_ receive: @escaping (MpStatus, UnsafeRawPointer?, Int64) -> Void) { self.receive = receive }
    }

    let index: Int32
    private let receiver: Receiver

    init(receive: @escaping (MpStatus, UnsafeRawPointer?, Int64) -> Void) throws {
        let receiver = Receiver(receive)
        let index = CMediaPipe_claimSlot(
            { context, status, result, timestamp in
                Unmanaged<Receiver>.fromOpaque(context!).takeUnretainedValue().receive(status, result, timestamp)
            }, Unmanaged.passUnretained(receiver).toOpaque())
        guard index >= 0 else {
            throw LandmarkerError(
                .tooManyLiveStreams, "\(CMEDIAPIPE_SLOT_COUNT) live-stream landmarkers are already open; close one first")
        }
        self.index = index
        self.receiver = receiver
    }

    deinit {
        CMediaPipe_releaseSlot(index)
    }
}

/// Hands live-stream results, in the order MediaPipe produced them, to a
/// handler if one is set and otherwise to an `AsyncStream`.
final class LiveStreamDelivery<Result: Sendable>: Sendable {
    /// Results for a consumer that set no handler; finishes when the task closes.
    let stream: AsyncStream<LiveStreamOutput<Result>>
    private let continuation: AsyncStream<LiveStreamOutput<Result>>.Continuation
    private let handler = Mutex<(@Sendable (LiveStreamOutput<Result>, Int) -> Void)?>(nil)

    init() {
        (stream, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    deinit {
        continuation.finish()
    }

    /// Sends every later result to `handler` instead of the stream.
    func setHandler(_ handler: @escaping @Sendable (LiveStreamOutput<Result>, Int) -> Void) {
        self.handler.withLock { $0 = handler }
        continuation.finish()
    }

    func deliver(_ output: LiveStreamOutput<Result>, timestampInMilliseconds: Int) {
        if let handler = handler.withLock({ $0 }) {
            handler(output, timestampInMilliseconds)
        } else {
            continuation.yield(output)
        }
    }
}
