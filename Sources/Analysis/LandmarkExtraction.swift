import BlockingWork
import Foundation
import LandmarkTracks
import Landmarkers
import Media

/// What `spotter landmarks` asks of the decode and landmark stages.
public struct LandmarkOptions: Sendable {
    /// Whether to run the hand landmarker as well.
    public var hands = false
    /// The most people to find per frame.
    public var numPoses = 1
    /// With `numPoses` 1, how often a video frame is also searched for everyone
    /// in it (a second landmarker, in image mode), so that the report can say
    /// who was scored when several people are in view; nil: never. The people
    /// found besides the one tracked are added to that frame's poses.
    public var crowdCheckIntervalMilliseconds: Int? = 1000
    /// The most hands to find per frame, when `hands` is on.
    public var numHands = 2
    /// With `hands`, in a video: look for hands only on a frame whose previous
    /// frame's pose has a wrist in view (`HandSearch`), not on every frame;
    /// the track's frames not searched have no `hands`. The rules read hands
    /// only beside a pose's wrist, so `spotter analyze` and the worker set it.
    public var handsNearWrists = false
    /// The hand model size.
    public var handModel = HandModel.full
    /// Where the models run: the CPU, or the GPU (where there is a usable one).
    public var delegate = BaseOptions.Delegate.cpu
    /// How many parts of a video are landmarked at once, each by landmarkers of
    /// its own on its own core (`SegmentedLandmarks`); 1: one pass. On the GPU,
    /// at most `mostGPUParts`.
    public var threads = 1
    /// How videos are decoded: frame rate, size cap, limits.
    public var decoding = VideoDecodeOptions()

    public init() {}
}

/// What a landmark run found, for the command line to report.
public struct LandmarkSummary: Sendable, Equatable {
    public var frames = 0
    public var framesWithPose = 0
    public var hands = 0
    /// Frames the hand landmarker ran on (every frame, unless `handsNearWrists`).
    public var framesSearchedForHands = 0
    /// What the decoder lost, in words; empty for a clean input.
    public var warnings: [String] = []
}

/// How far a long run has got, for progress reports.
public struct LandmarkProgress: Sendable {
    public var frames: Int
    /// How far into the video the run has got; for a run in parts, the video
    /// time done over all of them.
    public var timestampMilliseconds: Int
    public var durationMilliseconds: Int?
}

/// Runs the landmarkers over one input, for its `spotter.landmarks/v1` track.
public enum LandmarkExtraction {
    /// Landmarks `inputPath`, a JPEG or PNG image or a video, and hands the
    /// track's lines to `write`; reports each video frame to `progress`.
    public static func run(
        inputPath: String, options: LandmarkOptions, installation: MediaPipeInstallation,
        progress: @escaping (LandmarkProgress) -> Void = { _ in },
        write: @escaping (Data) throws -> Void
    ) async throws -> LandmarkSummary {
        let sink = WritingSink(write: write)
        return try await run(inputPath: inputPath, options: options, installation: installation, progress: progress, into: sink)
    }

    /// Landmarks `inputPath` and returns the whole track, kept in memory.
    public static func track(
        inputPath: String, options: LandmarkOptions, installation: MediaPipeInstallation,
        progress: @escaping (LandmarkProgress) -> Void = { _ in }
    ) async throws -> (track: LandmarkTrack, summary: LandmarkSummary) {
        let sink = CollectingSink()
        let summary = try await run(
            inputPath: inputPath, options: options, installation: installation, progress: progress, into: sink)
        guard let header = sink.header else { throw AnalysisError(.unreadableInput, "\(inputPath): no frames") }
        return (LandmarkTrack(header: header, frames: sink.frames), summary)
    }

    private static func run(
        inputPath: String, options: LandmarkOptions, installation: MediaPipeInstallation,
        progress: @escaping (LandmarkProgress) -> Void, into sink: some FrameSink
    ) async throws -> LandmarkSummary {
        let kind = try InputKind.of(inputPath)
        // Engine and models before any decoding: a missing installation is reported at once.
        // Every landmarker and image below runs on this engine, the one the caller named.
        let engine = try MediaPipeEngine.load(libraryPath: installation.libraryPath)
        try MediaPipeInstallation.requireModel(at: installation.poseModelPath)
        if options.hands { try MediaPipeInstallation.requireModel(at: installation.handModelPath(options.handModel)) }
        // Loading the models blocks for a while: off Swift's cooperative pool.
        let landmarkers = try await offThePool {
            try LandmarkerPair(options: options, installation: installation, engine: engine, mode: kind == .image ? .image : .video)
        }
        switch kind {
        case .image: return try await image(inputPath, landmarkers: landmarkers, engine: engine, into: sink)
        case .video:
            let reader = try await VideoReader.open(path: inputPath, options: options.decoding)
            let spans = LandmarkOptions.parts(durationMilliseconds: reader.info.durationMilliseconds, threads: options.partsAtOnce)
            guard spans.count > 1 else {
                return try await video(reader, options: options, landmarkers: landmarkers, engine: engine, progress: progress, into: sink)
            }
            try sink.start(header(of: reader))
            let segmented = SegmentedLandmarks(
                path: inputPath, options: options, installation: installation, engine: engine, first: landmarkers)
            let (frames, warnings) = try await segmented.frames(
                in: spans, durationMilliseconds: reader.info.durationMilliseconds, progress: progress)
            var summary = LandmarkSummary()
            for frame in frames { try summary.record(frame, to: sink) }
            summary.warnings = warnings
            return summary
        }
    }

    private static func header(of reader: VideoReader) -> LandmarkTrackHeader {
        LandmarkTrackHeader(
            fps: reader.samplingRate ?? reader.info.averageFrameRate ?? 0,
            width: reader.frameWidth, height: reader.frameHeight, source: reader.name)
    }

    private static func image(
        _ path: String, landmarkers: LandmarkerPair, engine: MediaPipeEngine, into sink: some FrameSink
    ) async throws -> LandmarkSummary {
        let image = try await offThePool { try MPImage(contentsOfFile: path, engine: engine) }
        let poses = try await landmarkers.pose.detect(image: image)
        let hands = try await landmarkers.hand?.detect(image: image)
        try sink.start(LandmarkTrackHeader(fps: 0, width: image.width, height: image.height, source: path))
        var summary = LandmarkSummary()
        try summary.record(LandmarkTrackFrame(timestampMilliseconds: 0, poses: poses, hands: hands), to: sink)
        return summary
    }

    private static func video(
        _ reader: VideoReader, options: LandmarkOptions, landmarkers: LandmarkerPair, engine: MediaPipeEngine,
        progress: @escaping (LandmarkProgress) -> Void, into sink: some FrameSink
    ) async throws -> LandmarkSummary {
        try sink.start(header(of: reader))
        var summary = LandmarkSummary()
        try await landmarkFrames(of: reader, options: options, landmarkers: landmarkers, engine: engine) { frame in
            try summary.record(frame, to: sink)
            progress(LandmarkProgress(
                frames: summary.frames, timestampMilliseconds: frame.timestampMilliseconds,
                durationMilliseconds: reader.info.durationMilliseconds))
        }
        summary.warnings = reader.report.warnings
        return summary
    }

    /// Runs `landmarkers` over every frame `reader` hands out, in order, and
    /// hands each frame's landmarks to `found`. About every
    /// `crowdCheckIntervalMilliseconds` the crowd check looks for everyone in view.
    static func landmarkFrames(
        of reader: VideoReader, options: LandmarkOptions, landmarkers: LandmarkerPair, engine: MediaPipeEngine,
        found: (LandmarkTrackFrame) throws -> Void
    ) async throws {
        let frames = reader.frames()
        // The first check comes after the first frame, where the scorer picks whom to follow.
        var nextCrowdCheck = options.crowdCheckIntervalMilliseconds.map { (reader.options.span?.lowerBound ?? 0) + $0 / 2 }
        var handSearch = HandSearch(nearWristsOnly: options.handsNearWrists)
        do {
            for try await frame in frames {
                let image = try MPImage(pixels: frame.pixels, width: frame.width, height: frame.height, format: .rgb, engine: engine)
                let checkCrowd = nextCrowdCheck.map { frame.timestampMilliseconds >= $0 } ?? false
                if checkCrowd, let interval = options.crowdCheckIntervalMilliseconds {
                    nextCrowdCheck = frame.timestampMilliseconds + interval
                }
                let searchHands = handSearch.isDue
                let landmarks = try await landmarkers.detect(
                    videoFrame: image, at: frame.timestampMilliseconds, checkCrowd: checkCrowd, searchHands: searchHands)
                handSearch.saw(landmarks.poses)
                var trackFrame = LandmarkTrackFrame(
                    timestampMilliseconds: frame.timestampMilliseconds, poses: landmarks.poses, hands: landmarks.hands)
                if let everyone = landmarks.everyone {
                    let people = LandmarkTrackFrame(timestampMilliseconds: 0, poses: everyone, hands: nil).poses
                    trackFrame.poses += CrowdCheck.others(people, besides: trackFrame.poses)
                }
                try found(trackFrame)
            }
        } catch {
            frames.cancel()
            throw error
        }
    }
}

/// Where a landmark run's header and frames go.
private protocol FrameSink: AnyObject {
    func start(_ header: LandmarkTrackHeader) throws
    func append(_ frame: LandmarkTrackFrame) throws
}

/// Writes the track as JSON Lines as it goes.
private final class WritingSink: FrameSink {
    private let write: (Data) throws -> Void
    private var writer: LandmarkTrackWriter?

    init(write: @escaping (Data) throws -> Void) {
        self.write = write
    }

    func start(_ header: LandmarkTrackHeader) throws {
        writer = try LandmarkTrackWriter(header: header, write: write)
    }

    func append(_ frame: LandmarkTrackFrame) throws {
        try writer?.append(frame)
    }
}

/// Keeps the track in memory, for scoring.
private final class CollectingSink: FrameSink {
    private(set) var header: LandmarkTrackHeader?
    private(set) var frames: [LandmarkTrackFrame] = []

    func start(_ header: LandmarkTrackHeader) throws {
        self.header = header
    }

    func append(_ frame: LandmarkTrackFrame) throws {
        frames.append(frame)
    }
}

/// The pose landmarker, and the hand landmarker if asked for, in one running
/// mode; for videos followed one person at a time, the image-mode landmarker
/// that looks for everyone in view now and then.
struct LandmarkerPair: Sendable {
    let pose: PoseLandmarker
    let hand: HandLandmarker?
    let crowd: PoseLandmarker?

    /// `sharing`'s crowd landmarker, where given, is used instead of a new one:
    /// it runs in image mode (no state between frames) once a second, so the
    /// parts of a segmented run can share it and its memory.
    init(
        options: LandmarkOptions, installation: MediaPipeInstallation, engine: MediaPipeEngine, mode: RunningMode,
        sharingCrowdOf sharing: LandmarkerPair? = nil
    ) throws {
        var poseOptions = PoseLandmarkerOptions()
        poseOptions.baseOptions.modelAssetPath = installation.poseModelPath
        poseOptions.baseOptions.delegate = options.delegate
        poseOptions.runningMode = mode
        poseOptions.numPoses = options.numPoses
        pose = try PoseLandmarker(options: poseOptions, engine: engine)
        if let sharing {
            crowd = sharing.crowd
        } else if mode == .video, options.numPoses == 1, options.crowdCheckIntervalMilliseconds != nil {
            var crowdOptions = PoseLandmarkerOptions()
            crowdOptions.baseOptions.modelAssetPath = installation.poseModelPath
            crowdOptions.baseOptions.delegate = options.delegate
            crowdOptions.runningMode = .image
            crowdOptions.numPoses = CrowdCheck.mostPeople
            crowd = try PoseLandmarker(options: crowdOptions, engine: engine)
        } else {
            crowd = nil
        }
        guard options.hands else {
            hand = nil
            return
        }
        var handOptions = HandLandmarkerOptions()
        handOptions.baseOptions.modelAssetPath = installation.handModelPath(options.handModel)
        handOptions.baseOptions.delegate = options.delegate
        handOptions.runningMode = mode
        handOptions.numHands = options.numHands
        hand = try HandLandmarker(options: handOptions, engine: engine)
    }

    /// Runs the landmarkers on a video frame at once, each on its own queue;
    /// `everyone` holds the people the crowd check found, when it ran. Without
    /// `searchHands`, the hand landmarker does not run (no hands, as without one).
    func detect(
        videoFrame image: MPImage, at timestamp: Int, checkCrowd: Bool, searchHands: Bool = true
    ) async throws -> (poses: PoseLandmarkerResult, hands: HandLandmarkerResult?, everyone: PoseLandmarkerResult?) {
        async let poses = pose.detect(videoFrame: image, timestampInMilliseconds: timestamp)
        async let everyone = checkCrowd ? crowd?.detect(image: image) : nil
        guard let hand, searchHands else { return (try await poses, nil, try await everyone) }
        async let hands = hand.detect(videoFrame: image, timestampInMilliseconds: timestamp)
        return (try await poses, try await hands, try await everyone)
    }
}

extension LandmarkSummary {
    fileprivate mutating func record(_ frame: LandmarkTrackFrame, to sink: some FrameSink) throws {
        try sink.append(frame)
        frames += 1
        framesWithPose += frame.poses.isEmpty ? 0 : 1
        hands += frame.hands?.count ?? 0
        framesSearchedForHands += frame.hands == nil ? 0 : 1
    }
}

/// Still images and videos, told apart by their first bytes.
enum InputKind {
    case image
    case video

    static func of(_ path: String) throws -> InputKind {
        guard let file = FileHandle(forReadingAtPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file"
            throw AnalysisError(.unreadableInput, "\(path): \(reason)")
        }
        defer { try? file.close() }
        let magic = [UInt8]((try? file.read(upToCount: 8)) ?? Data())
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF]
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        return magic.starts(with: jpeg) || magic.starts(with: png) ? .image : .video
    }
}
