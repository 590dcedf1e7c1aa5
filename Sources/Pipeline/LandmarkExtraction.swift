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
    /// The most hands to find per frame, when `hands` is on.
    public var numHands = 2
    /// The hand model size.
    public var handModel = HandModel.full
    /// How videos are decoded: frame rate, size cap, limits.
    public var decoding = VideoDecodeOptions()

    public init() {}
}

/// What a landmark run found, for the command line to report.
public struct LandmarkSummary: Sendable, Equatable {
    public var frames = 0
    public var framesWithPose = 0
    public var hands = 0
    /// What the decoder lost, in words; empty for a clean input.
    public var warnings: [String] = []
}

/// How far a long run has got, for progress reports.
public struct LandmarkProgress: Sendable {
    public var frames: Int
    public var timestampMilliseconds: Int
    public var durationMilliseconds: Int?
}

/// Runs the landmarkers over one input and writes its `spotter.landmarks/v1` track.
public enum LandmarkExtraction {
    /// Landmarks `inputPath`, a JPEG or PNG image or a video, and hands the
    /// track's lines to `write`; reports each video frame to `progress`.
    public static func run(
        inputPath: String, options: LandmarkOptions, installation: MediaPipeInstallation,
        progress: @escaping (LandmarkProgress) -> Void = { _ in },
        write: @escaping (Data) throws -> Void
    ) async throws -> LandmarkSummary {
        let kind = try InputKind.of(inputPath)
        // Engine and models before any decoding: a missing installation is reported at once.
        _ = try MediaPipeEngine.load(libraryPath: installation.libraryPath)
        try MediaPipeInstallation.requireModel(at: installation.poseModelPath)
        if options.hands { try MediaPipeInstallation.requireModel(at: installation.handModelPath(options.handModel)) }
        switch kind {
        case .image: return try image(inputPath, options: options, installation: installation, write: write)
        case .video:
            return try await video(inputPath, options: options, installation: installation, progress: progress, write: write)
        }
    }

    private static func image(
        _ path: String, options: LandmarkOptions, installation: MediaPipeInstallation,
        write: @escaping (Data) throws -> Void
    ) throws -> LandmarkSummary {
        let image = try MPImage(contentsOfFile: path)
        let landmarkers = try LandmarkerPair(options: options, installation: installation, mode: .image)
        let poses = try landmarkers.pose.detect(image: image)
        let hands = try landmarkers.hand?.detect(image: image)
        let writer = try LandmarkTrackWriter(
            header: LandmarkTrackHeader(fps: 0, width: image.width, height: image.height, source: path), write: write)
        var summary = LandmarkSummary()
        try summary.record(LandmarkTrackFrame(timestampMilliseconds: 0, poses: poses, hands: hands), to: writer)
        return summary
    }

    private static func video(
        _ path: String, options: LandmarkOptions, installation: MediaPipeInstallation,
        progress: @escaping (LandmarkProgress) -> Void, write: @escaping (Data) throws -> Void
    ) async throws -> LandmarkSummary {
        let reader = try await VideoReader.open(path: path, options: options.decoding)
        let landmarkers = try LandmarkerPair(options: options, installation: installation, mode: .video)
        let writer = try LandmarkTrackWriter(
            header: LandmarkTrackHeader(
                fps: options.decoding.frameRate ?? reader.info.averageFrameRate ?? 0,
                width: reader.frameWidth, height: reader.frameHeight, source: path),
            write: write)
        var summary = LandmarkSummary()
        let frames = reader.frames()
        do {
            for try await frame in frames {
                let image = try MPImage(pixels: frame.pixels, width: frame.width, height: frame.height, format: .rgb)
                let found = try await landmarkers.detect(videoFrame: image, at: frame.timestampMilliseconds)
                try summary.record(
                    LandmarkTrackFrame(timestampMilliseconds: frame.timestampMilliseconds, poses: found.poses, hands: found.hands),
                    to: writer)
                progress(LandmarkProgress(
                    frames: summary.frames, timestampMilliseconds: frame.timestampMilliseconds,
                    durationMilliseconds: reader.info.durationMilliseconds))
            }
        } catch {
            frames.cancel()
            throw error
        }
        summary.warnings = reader.report.warnings
        return summary
    }
}

/// The pose landmarker, and the hand landmarker if asked for, in one running mode.
private struct LandmarkerPair {
    let pose: PoseLandmarker
    let hand: HandLandmarker?

    init(options: LandmarkOptions, installation: MediaPipeInstallation, mode: RunningMode) throws {
        var poseOptions = PoseLandmarkerOptions()
        poseOptions.baseOptions.modelAssetPath = installation.poseModelPath
        poseOptions.runningMode = mode
        poseOptions.numPoses = options.numPoses
        pose = try PoseLandmarker(options: poseOptions)
        guard options.hands else {
            hand = nil
            return
        }
        var handOptions = HandLandmarkerOptions()
        handOptions.baseOptions.modelAssetPath = installation.handModelPath(options.handModel)
        handOptions.runningMode = mode
        handOptions.numHands = options.numHands
        hand = try HandLandmarker(options: handOptions)
    }

    /// Runs both landmarkers on a video frame at once, each on its own queue.
    func detect(videoFrame image: MPImage, at timestamp: Int) async throws -> (poses: PoseLandmarkerResult, hands: HandLandmarkerResult?) {
        async let poses = pose.detect(videoFrame: image, timestampInMilliseconds: timestamp)
        guard let hand else { return (try await poses, nil) }
        async let hands = hand.detect(videoFrame: image, timestampInMilliseconds: timestamp)
        return (try await poses, try await hands)
    }
}

extension LandmarkSummary {
    fileprivate mutating func record(_ frame: LandmarkTrackFrame, to writer: LandmarkTrackWriter) throws {
        try writer.append(frame)
        frames += 1
        framesWithPose += frame.poses.isEmpty ? 0 : 1
        hands += frame.hands?.count ?? 0
    }
}

/// Still images and videos, told apart by their first bytes.
enum InputKind {
    case image
    case video

    static func of(_ path: String) throws -> InputKind {
        guard let file = FileHandle(forReadingAtPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file"
            throw PipelineError(.unreadableInput, "\(path): \(reason)")
        }
        defer { try? file.close() }
        let magic = [UInt8]((try? file.read(upToCount: 8)) ?? Data())
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF]
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        return magic.starts(with: jpeg) || magic.starts(with: png) ? .image : .video
    }
}
