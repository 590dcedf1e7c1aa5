import Contracts
import Foundation
import LandmarkTracks
import Landmarkers
import Rules

/// Whether an analysis runs the hand landmarker.
public enum HandTracking: String, Sendable, CaseIterable {
    /// When the exercise's rules read hand landmarks (wrist flexion).
    case auto
    case on
    case off
}

/// What `spotter analyze` asks of the stages.
public struct AnalysisOptions: Sendable {
    public var hands = HandTracking.auto
    /// Decoding and landmarker options; `hands` there is decided by `hands` here.
    public var landmarks: LandmarkOptions = {
        var options = LandmarkOptions()
        options.decoding.maxFrameRate = CommandContract.maxFrameRate
        return options
    }()

    public init() {}
}

/// Scores one session: from a landmark track, or from a video through the
/// decode and landmark stages, with one exercise's rules.
public enum SessionAnalysis {
    /// Scores the `spotter.landmarks/v1` track in the file at `path`.
    public static func scoreTrack(at path: String, rule: ExerciseRule) throws -> Analysis {
        var analysis = Scorer(rule: rule).score(try LandmarkTrack(contentsOfFile: path))
        if analysis.report.source.path.isEmpty { analysis.report.source.path = path }
        return analysis
    }

    /// Decodes `path` (a video, or a still image), runs the landmarkers in video
    /// mode and scores the track; what the decoder lost is added to the warnings.
    public static func analyzeVideo(
        at path: String, rule: ExerciseRule, options: AnalysisOptions, installation: MediaPipeInstallation,
        progress: @escaping (LandmarkProgress) -> Void = { _ in }
    ) async throws -> Analysis {
        var landmarkOptions = options.landmarks
        landmarkOptions.hands = switch options.hands {
        case .auto: rule.usesHands
        case .on: true
        case .off: false
        }
        landmarkOptions.handsNearWrists = true
        let (track, summary) = try await LandmarkExtraction.track(
            inputPath: path, options: landmarkOptions, installation: installation, progress: progress)
        var analysis = Scorer(rule: rule).score(track)
        analysis.report.warnings = summary.warnings + analysis.report.warnings
        return analysis
    }
}
