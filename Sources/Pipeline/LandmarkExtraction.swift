import Foundation
import LandmarkTracks
import Landmarkers

/// What `spotter landmarks` asks of the landmark stage.
public struct LandmarkOptions: Sendable {
    /// Whether to run the hand landmarker as well.
    public var hands = false
    /// The most people to find per frame.
    public var numPoses = 1
    /// The most hands to find per frame, when `hands` is on.
    public var numHands = 2
    /// The hand model size.
    public var handModel = HandModel.full

    public init() {}
}

/// What a landmark run found, for the command line to report.
public struct LandmarkSummary: Sendable, Equatable {
    public var frames: Int
    public var framesWithPose: Int
    public var hands: Int
}

/// Runs the landmarkers over one input and writes its `spotter.landmarks/v1` track.
public enum LandmarkExtraction {
    /// Landmarks `inputPath` (a JPEG or PNG image) and hands the track's lines to `write`.
    public static func run(
        inputPath: String, options: LandmarkOptions, installation: MediaPipeInstallation,
        write: @escaping (Data) throws -> Void
    ) throws -> LandmarkSummary {
        try InputKind.image.require(for: inputPath)
        // Engine and models first: a missing installation is reported before any work.
        _ = try MediaPipeEngine.load(libraryPath: installation.libraryPath)
        try MediaPipeInstallation.requireModel(at: installation.poseModelPath)
        if options.hands { try MediaPipeInstallation.requireModel(at: installation.handModelPath(options.handModel)) }

        let image = try MPImage(contentsOfFile: inputPath)
        var poseOptions = PoseLandmarkerOptions()
        poseOptions.baseOptions.modelAssetPath = installation.poseModelPath
        poseOptions.numPoses = options.numPoses
        let poses = try PoseLandmarker(options: poseOptions).detect(image: image)

        var hands: HandLandmarkerResult?
        if options.hands {
            var handOptions = HandLandmarkerOptions()
            handOptions.baseOptions.modelAssetPath = installation.handModelPath(options.handModel)
            handOptions.numHands = options.numHands
            hands = try HandLandmarker(options: handOptions).detect(image: image)
        }

        let writer = try LandmarkTrackWriter(
            header: LandmarkTrackHeader(fps: 0, width: image.width, height: image.height, source: inputPath),
            write: write)
        try writer.append(LandmarkTrackFrame(timestampMilliseconds: 0, poses: poses, hands: hands))
        return LandmarkSummary(
            frames: 1, framesWithPose: poses.landmarks.isEmpty ? 0 : 1, hands: hands?.landmarks.count ?? 0)
    }
}

/// The kinds of input file the pipeline tells apart by their first bytes.
enum InputKind {
    case image

    func require(for path: String) throws {
        guard let file = FileHandle(forReadingAtPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file"
            throw PipelineError(.unreadableInput, "\(path): \(reason)")
        }
        defer { try? file.close() }
        let magic = [UInt8]((try? file.read(upToCount: 8)) ?? Data())
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF]
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard magic.starts(with: jpeg) || magic.starts(with: png) else {
            throw PipelineError(
                .unsupportedInput, "\(path): not a JPEG or PNG image (video input is not supported yet)")
        }
    }
}
