import BlockingWork
import Foundation
import LandmarkTracks
import Landmarkers
import Media

/// Landmarks one video on several cores: the video is cut into consecutive
/// parts of equal length, and each part is landmarked by landmarkers of its
/// own, in VIDEO mode, beside the others. Each part's landmarkers start
/// `leadInMilliseconds` before the part, so that by its first frame they have
/// found the person and are tracking them, as a single pass would be; the
/// lead-in's landmarks are dropped. Each part's decoder seeks to a key frame
/// before its lead-in (`VideoDecodeOptions.span`) and hands out exactly the
/// frames a single pass would; the parts are joined in time order.
///
/// Landmarks inside the first frames of each part may differ slightly from a
/// single pass's (tracking starts again from a fresh detection), which
/// `SegmentedLandmarksTests` measures; counts and faults do not change.
struct SegmentedLandmarks {
    /// How long each part's landmarkers run before their part starts.
    static let leadInMilliseconds = 1_000

    let path: String
    let options: LandmarkOptions
    let installation: MediaPipeInstallation
    let engine: MediaPipeEngine
    /// Landmarkers already loaded, for the first part.
    let first: LandmarkerPair

    /// Every part's frames, in time order, and what the decoder lost; reports
    /// the frames done to `progress`.
    func frames(
        in spans: [Range<Int>], durationMilliseconds: Int?, progress: @escaping (LandmarkProgress) -> Void
    ) async throws -> (frames: [LandmarkTrackFrame], warnings: [String]) {
        let (done, reporter) = AsyncStream.makeStream(of: Landmarked.self)
        let collector = Task { [self] in
            defer { reporter.finish() }
            return try await withThrowingTaskGroup(of: (Int, Part).self) { group in
                for (index, span) in spans.enumerated() {
                    group.addTask { (index, try await part(span, index: index, reporter: reporter)) }
                }
                var parts = [Part](repeating: Part(), count: spans.count)
                for try await (index, part) in group { parts[index] = part }
                let warnings = parts.flatMap(\.warnings).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
                return (parts.flatMap(\.frames), warnings)
            }
        }
        return try await withTaskCancellationHandler {
            // Progress is the video time done over all parts, each from its own start.
            var frames = 0
            var covered = [Int](repeating: 0, count: spans.count)
            for await landmarked in done {
                frames += 1
                covered[landmarked.part] = max(0, landmarked.timestampMilliseconds - spans[landmarked.part].lowerBound)
                progress(LandmarkProgress(
                    frames: frames, timestampMilliseconds: covered.reduce(0, +), durationMilliseconds: durationMilliseconds))
            }
            return try await collector.value
        } onCancel: {
            collector.cancel()
        }
    }

    /// A frame one part has landmarked, for progress reports.
    private struct Landmarked: Sendable {
        var part: Int
        var timestampMilliseconds: Int
    }

    /// One part's frames, and what its decoder lost.
    private struct Part: Sendable {
        var frames: [LandmarkTrackFrame] = []
        var warnings: [String] = []
    }

    /// One part's frames, from landmarkers that start `leadInMilliseconds` before it.
    private func part(_ span: Range<Int>, index: Int, reporter: AsyncStream<Landmarked>.Continuation) async throws -> Part {
        var decoding = options.decoding
        decoding.span = max(0, span.lowerBound - Self.leadInMilliseconds)..<span.upperBound
        // One part's decoder on each core is enough: the parts share them.
        decoding.decoderThreads = 1
        let reader = try await VideoReader.open(path: path, options: decoding)
        let landmarkers = index == 0 ? first : try await offThePool { [options, installation, engine, first] in
            try LandmarkerPair(options: options, installation: installation, engine: engine, mode: .video, sharingCrowdOf: first)
        }
        var frames: [LandmarkTrackFrame] = []
        try await LandmarkExtraction.landmarkFrames(of: reader, options: options, landmarkers: landmarkers, engine: engine) { frame in
            guard frame.timestampMilliseconds >= span.lowerBound else { return }
            frames.append(frame)
            reporter.yield(Landmarked(part: index, timestampMilliseconds: frame.timestampMilliseconds))
        }
        return Part(frames: frames, warnings: reader.report.warnings)
    }
}

extension LandmarkOptions {
    /// A part of a segmented run is at least this long: shorter videos use fewer parts.
    public static let minimumPartMilliseconds = 4_000

    /// The most parts landmarked at once on the GPU. Measured on an H200
    /// (`ops/benchmarks/parts_scaling.c`): two streams did 1.7× one stream's
    /// frames a second, four only 0.6× — the streams contend for the GPU.
    public static let mostGPUParts = 2

    /// The parts landmarked at once: `threads`, capped on the GPU.
    public var partsAtOnce: Int { delegate == .gpu ? min(threads, Self.mostGPUParts) : threads }

    /// The parts (ms from the start; the last open-ended) a video of
    /// `durationMilliseconds` is landmarked in with `threads`: as many as
    /// threads, each at least `minimumPartMilliseconds`; one, the whole video,
    /// when its length is unknown or too short to share.
    public static func parts(durationMilliseconds: Int?, threads: Int) -> [Range<Int>] {
        guard let duration = durationMilliseconds, duration > 0 else { return [0..<Int.max] }
        let count = max(1, min(threads, duration / minimumPartMilliseconds))
        let length = (duration + count - 1) / count
        return (0..<count).map { index in
            index * length..<(index == count - 1 ? Int.max : (index + 1) * length)
        }
    }
}
