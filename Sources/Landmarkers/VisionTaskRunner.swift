internal import CMediaPipe
import Dispatch
import Synchronization

/// The C entry points and result conversion of one MediaPipe vision task, so
/// that one runner serves the pose and the hand landmarker.
protocol VisionTaskCalls {
    associatedtype COptions
    associatedtype CResult
    associatedtype Result: Sendable

    /// The task's name in messages, such as "pose landmarker".
    static var name: String { get }
    static func create(
        _ api: CMediaPipe_API, _ options: UnsafeMutablePointer<COptions>, _ task: UnsafeMutablePointer<OpaquePointer?>,
        _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    ) -> MpStatus
    static func detectImage(
        _ api: CMediaPipe_API, _ task: OpaquePointer, _ image: OpaquePointer,
        _ options: UnsafePointer<MpImageProcessingOptions>, _ result: UnsafeMutablePointer<CResult>,
        _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    ) -> MpStatus
    static func detectForVideo(
        _ api: CMediaPipe_API, _ task: OpaquePointer, _ image: OpaquePointer,
        _ options: UnsafePointer<MpImageProcessingOptions>, _ timestamp: Int64,
        _ result: UnsafeMutablePointer<CResult>, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    ) -> MpStatus
    static func detectAsync(
        _ api: CMediaPipe_API, _ task: OpaquePointer, _ image: OpaquePointer,
        _ options: UnsafePointer<MpImageProcessingOptions>, _ timestamp: Int64,
        _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    ) -> MpStatus
    static func closeResult(_ api: CMediaPipe_API, _ result: UnsafeMutablePointer<CResult>)
    static func close(
        _ api: CMediaPipe_API, _ task: OpaquePointer, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    ) -> MpStatus
    /// Copies a C result into Swift values.
    static func convert(
        _ result: CResult, timestampInMilliseconds: Int, engine: MediaPipeEngine
    ) throws(LandmarkerError) -> Result
    /// A zeroed C result for the engine to fill.
    static func emptyResult() -> CResult
}

/// Owns one MediaPipe vision task: its C handle, its running mode and the last
/// timestamp it was given, and its live-stream callback slot if it has one.
///
/// Every C call on the handle is made under `state`'s lock, one at a time, as
/// MediaPipe's own bindings do; that, and the handle being freed only in
/// `deinit`, is why this class may be `@unchecked Sendable`. The `async` entry
/// points move the blocking work to the task's own dispatch queue, off Swift's
/// cooperative pool.
final class VisionTaskRunner<Calls: VisionTaskCalls>: @unchecked Sendable {
    private struct State {
        var lastTimestamp: Int?
    }

    let engine: MediaPipeEngine
    let runningMode: RunningMode
    /// Where live-stream results go; `nil` in the other modes.
    let liveStream: LiveStreamDelivery<Calls.Result>?
    private let task: OpaquePointer
    private let slot: LiveStreamSlot?
    private let state = Mutex(State())
    private let queue: DispatchQueue

    /// Has the engine create the task from the C options `makeOptions` returns,
    /// given the C base options and, in live-stream mode, the callback slot.
    init(
        engine: MediaPipeEngine, baseOptions: BaseOptions, runningMode: RunningMode,
        makeOptions: (MpBaseOptions, LiveStreamSlot?) -> Calls.COptions
    ) throws {
        var delivery: LiveStreamDelivery<Calls.Result>?
        var slot: LiveStreamSlot?
        if runningMode == .liveStream {
            let liveStream = LiveStreamDelivery<Calls.Result>()
            slot = try LiveStreamSlot { status, result, timestamp in
                let milliseconds = Int(timestamp)
                guard status == kMpOk, let result else {
                    liveStream.deliver(
                        .failure(LandmarkerError(
                            .detectionFailed, "the \(Calls.name) failed on the frame at \(milliseconds) ms",
                            mediaPipeStatus: status)),
                        timestampInMilliseconds: milliseconds)
                    return
                }
                let output = LiveStreamOutput { () throws(LandmarkerError) in
                    try Calls.convert(
                        result.assumingMemoryBound(to: Calls.CResult.self).pointee,
                        timestampInMilliseconds: milliseconds, engine: engine)
                }
                liveStream.deliver(output, timestampInMilliseconds: milliseconds)
            }
            delivery = liveStream
        }
        self.engine = engine
        self.runningMode = runningMode
        self.liveStream = delivery
        self.slot = slot
        self.task = try baseOptions.withCOptions { base in
            var options = makeOptions(base, slot)
            var task: OpaquePointer?
            let failure = baseOptions.delegate == .gpu
                ? (LandmarkerError.Code.gpuUnavailable,
                   "MediaPipe cannot run a \(Calls.name) on the GPU: the GPU delegate needs a real GPU and its driver's EGL "
                       + "(libEGL.so.1, libGLESv2.so.2 and the vendor file __EGL_VENDOR_LIBRARY_FILENAMES names); use --delegate cpu")
                : (LandmarkerError.Code.modelUnavailable, "MediaPipe cannot make a \(Calls.name) from \(baseOptions.modelAssetPath)")
            try engine.check(failure.0, failure.1) {
                Calls.create(engine.api.pointee, &options, &task, $0)
            }
            guard let task else { throw LandmarkerError(.modelUnavailable, "MediaPipe returned no \(Calls.name)") }
            return task
        }
        self.queue = DispatchQueue(label: "spotter.\(Calls.name)")
    }

    /// Sends live-stream results to `forward` instead of `liveStream.stream`.
    func forwardLiveStream(_ forward: @escaping @Sendable (Calls.Result?, Int, LandmarkerError?) -> Void) {
        liveStream?.setHandler { output, timestamp in
            switch output {
            case .success(let result): forward(result, timestamp, nil)
            case .failure(let error): forward(nil, timestamp, error)
            }
        }
    }

    deinit {
        // Close waits for the graph to finish, so no callback comes after it;
        // the slot is released when this object's properties go.
        var error: UnsafeMutablePointer<CChar>?
        _ = Calls.close(engine.api.pointee, task, &error)
        if let error { engine.api.pointee.MpErrorFree(error) }
    }

    /// The image's processing options, once it is known to belong to this task's engine.
    private func processingOptions(_ image: MPImage) throws -> MpImageProcessingOptions {
        guard image.engine === engine else {
            throw LandmarkerError(
                .invalidImage,
                "the image was made by the MediaPipe engine \(image.engine.libraryPath), not this \(Calls.name)'s \(engine.libraryPath)")
        }
        return try image.processingOptions()
    }

    func detect(_ image: MPImage) throws -> Calls.Result {
        try require(.image, for: "detect(image:)")
        let options = try processingOptions(image)
        return try state.withLock { _ in
            try run(timestamp: 0) { result, error in
                withUnsafePointer(to: options) {
                    Calls.detectImage(engine.api.pointee, task, image.pointer, $0, result, error)
                }
            }
        }
    }

    func detect(videoFrame image: MPImage, timestamp: Int) throws -> Calls.Result {
        try require(.video, for: "detect(videoFrame:timestampInMilliseconds:)")
        let options = try processingOptions(image)
        return try state.withLock { state in
            try Self.advance(&state, to: timestamp)
            return try run(timestamp: timestamp) { result, error in
                withUnsafePointer(to: options) {
                    Calls.detectForVideo(engine.api.pointee, task, image.pointer, $0, Int64(timestamp), result, error)
                }
            }
        }
    }

    func detectAsync(_ image: MPImage, timestamp: Int) throws {
        try require(.liveStream, for: "detectAsync(image:timestampInMilliseconds:)")
        let options = try processingOptions(image)
        try state.withLock { state in
            try Self.advance(&state, to: timestamp)
            try engine.check(.detectionFailed, "the \(Calls.name) refused the frame at \(timestamp) ms") { error in
                withUnsafePointer(to: options) {
                    Calls.detectAsync(engine.api.pointee, task, image.pointer, $0, Int64(timestamp), error)
                }
            }
        }
    }

    /// Runs `work` on this task's queue and waits for it without blocking the caller's thread.
    func onQueue<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result(catching: work)) }
        }
    }

    private func require(_ mode: RunningMode, for method: String) throws {
        guard runningMode == mode else {
            throw LandmarkerError(
                .wrongRunningMode,
                "\(method) needs a \(Calls.name) in \(mode) mode; this one is in \(runningMode) mode")
        }
    }

    private static func advance(_ state: inout State, to timestamp: Int) throws {
        if let last = state.lastTimestamp, timestamp <= last {
            throw LandmarkerError(
                .nonMonotonicTimestamp,
                "timestamp \(timestamp) ms is not after the previous frame's \(last) ms; timestamps must increase")
        }
        state.lastTimestamp = timestamp
    }

    private func run(
        timestamp: Int,
        _ call: (UnsafeMutablePointer<Calls.CResult>, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> MpStatus
    ) throws -> Calls.Result {
        var result = Calls.emptyResult()
        try engine.check(.detectionFailed, "the \(Calls.name) failed") { error in call(&result, error) }
        defer { Calls.closeResult(engine.api.pointee, &result) }
        return try Calls.convert(result, timestampInMilliseconds: timestamp, engine: engine)
    }
}
