import Foundation
import Landmarkers
import Synchronization
import TestSupport
import Testing

/// Live-stream mode: results arrive later, in order; frames sent while the
/// landmarker is busy are dropped (MediaPipe's flow limiter).
@Suite("Live-stream mode")
struct LiveStreamTests {
    static let frameInterval = 33

    /// Sends `count` frames back to back, then, after the landmarker has been
    /// idle a while, one last frame, which it must take.
    func sendBurst(
        _ count: Int, using send: (MPImage, Int) throws -> Void
    ) async throws -> (sent: [Int], last: Int) {
        let image = try MPImage(contentsOfFile: TestAssets.photo("bus.jpg"))
        var sent = [Int]()
        for index in 0..<count {
            try send(image, index * Self.frameInterval)
            sent.append(index * Self.frameInterval)
        }
        try await Task.sleep(for: .seconds(2))
        let last = 100_000
        try send(image, last)
        return (sent + [last], last)
    }

    func checkDelivery(_ timestamps: [Int], sent: [Int], last: Int) {
        #expect(timestamps == timestamps.sorted() && Set(timestamps).count == timestamps.count, "in order: \(timestamps)")
        #expect(Set(timestamps).isSubset(of: sent))
        #expect(timestamps.last == last, "the frame sent to an idle landmarker is processed")
        #expect(timestamps.count < sent.count, "frames sent while busy are dropped: \(timestamps.count) of \(sent.count)")
        #expect(timestamps.first == 0, "the first frame finds the landmarker idle")
    }

    @Test("results reach the AsyncStream in order, frames sent while busy are dropped")
    func stream() async throws {
        let landmarker = try PoseLandmarker(options: .installed(.liveStream))
        let (sent, last) = try await sendBurst(30) { try landmarker.detectAsync(image: $0, timestampInMilliseconds: $1) }
        var timestamps = [Int]()
        for await output in landmarker.liveStreamResults {
            let result = try output.get()
            #expect(result.landmarks.count == 1)
            timestamps.append(result.timestampInMilliseconds)
            if result.timestampInMilliseconds == last { break }
        }
        checkDelivery(timestamps, sent: sent, last: last)
    }

    @Test("results reach the delegate in order, with the landmarker that made them")
    func delegate() async throws {
        let recorder = Recorder()
        var options = HandLandmarkerOptions.installed(.liveStream)
        options.handLandmarkerLiveStreamDelegate = recorder
        let landmarker = try HandLandmarker(options: options)
        let image = try MPImage(contentsOfFile: TestAssets.photo("messi5.jpg"))
        var sent = [Int]()
        for index in 0..<30 {
            try landmarker.detectAsync(image: image, timestampInMilliseconds: index * Self.frameInterval)
            sent.append(index * Self.frameInterval)
        }
        try await Task.sleep(for: .seconds(2))
        try landmarker.detectAsync(image: image, timestampInMilliseconds: 100_000)
        sent.append(100_000)
        let deadline = ContinuousClock.now + .seconds(30)
        while recorder.timestamps.last != 100_000, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        checkDelivery(recorder.timestamps, sent: sent, last: 100_000)
        #expect(recorder.landmarkers.allSatisfy { $0 == ObjectIdentifier(landmarker) })
        #expect(recorder.handCounts.allSatisfy { $0 == 1 })
        #expect(recorder.errors.isEmpty)
        var nothing = 0
        for await _ in landmarker.liveStreamResults { nothing += 1 }
        #expect(nothing == 0, "with a delegate, the stream stays empty")
    }

    @Test("live-stream timestamps must increase")
    func timestamps() throws {
        let landmarker = try PoseLandmarker(options: .installed(.liveStream))
        let image = try MPImage(contentsOfFile: TestAssets.photo("bus.jpg"))
        try landmarker.detectAsync(image: image, timestampInMilliseconds: 500)
        let error = #expect(throws: LandmarkerError.self) {
            try landmarker.detectAsync(image: image, timestampInMilliseconds: 500)
        }
        #expect(error?.code == .nonMonotonicTimestamp)
    }

    @Test("the stream ends when the landmarker is released")
    func streamEnds() async throws {
        var landmarker: PoseLandmarker? = try PoseLandmarker(options: .installed(.liveStream))
        let results = try #require(landmarker?.liveStreamResults)
        try landmarker?.detectAsync(image: MPImage(contentsOfFile: TestAssets.photo("bus.jpg")), timestampInMilliseconds: 0)
        landmarker = nil
        var delivered = 0
        for await output in results {
            #expect(try output.get().timestampInMilliseconds == 0)
            delivered += 1
        }
        #expect(delivered == 1, "closing waits for the frame in flight")
    }
}

final class Recorder: HandLandmarkerLiveStreamDelegate {
    private struct Log {
        var timestamps: [Int] = []
        var handCounts: [Int] = []
        var landmarkers: [ObjectIdentifier] = []
        var errors: [LandmarkerError] = []
    }

    private let log = Mutex(Log())

    var timestamps: [Int] { log.withLock { $0.timestamps } }
    var handCounts: [Int] { log.withLock { $0.handCounts } }
    var landmarkers: [ObjectIdentifier] { log.withLock { $0.landmarkers } }
    var errors: [LandmarkerError] { log.withLock { $0.errors } }

    func handLandmarker(
        _ handLandmarker: HandLandmarker, didFinishDetection result: HandLandmarkerResult?,
        timestampInMilliseconds: Int, error: LandmarkerError?
    ) {
        log.withLock {
            $0.timestamps.append(timestampInMilliseconds)
            $0.handCounts.append(result?.hands.count ?? -1)
            $0.landmarkers.append(ObjectIdentifier(handLandmarker))
            if let error { $0.errors.append(error) }
        }
    }
}
