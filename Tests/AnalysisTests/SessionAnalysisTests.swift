import Analysis
import Contracts
import Foundation
import LandmarkTracks
import Media
import Rules
import Testing
import TestSupport

/// `spotter analyze VIDEO`: decode, landmarks and rules in one run.
@Suite("Analysing videos")
struct SessionAnalysisTests {
    static let rules = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Rules").path

    static func rule(_ exercise: String) throws -> ExerciseRule { try RuleBook.rule(for: exercise, in: rules) }

    static func analyze(_ path: String, _ exercise: String, hands: HandTracking = .auto) async throws -> Analysis {
        try await analyze(path, rule: try rule(exercise), hands: hands)
    }

    static func analyze(_ path: String, rule: ExerciseRule, hands: HandTracking = .auto) async throws -> Analysis {
        var options = AnalysisOptions()
        options.hands = hands
        return try await SessionAnalysis.analyzeVideo(at: path, rule: rule, options: options, installation: TestAssets.installation)
    }

    /// A rule with a wrist fault judged from any view (the curl's is judged from the side only).
    static let wristRule = """
        exercise: wrist_demo
        version: 1
        signals:
          elbow:
            angle: [shoulder, elbow, wrist]
          wrist:
            wrist_flexion: true
        reps:
          signal: elbow
          rest: 125
          active: 95
        faults:
          - code: bent_wrist
            signal: wrist
            at: rep
            above: 30
            message: "Wrist bent {value}°"
        """

    @Test("a video scores exactly as its landmark track does")
    func videoEqualsTrack() async throws {
        let path = try Clips.path("person.mp4")
        let analysis = try await Self.analyze(path, "squat")
        let lines = LockedLines()
        _ = try await LandmarkExtraction.run(
            inputPath: path, options: LandmarkOptions(), installation: TestAssets.installation, write: lines.append)
        let text = lines.all.map { $0 + Data("\n".utf8) }.reduce(Data(), +)
        let track = try LandmarkTrack(contentsOf: text, name: "person.jsonl")
        #expect(Scorer(rule: try Self.rule("squat")).score(track).report == analysis.report)

        let report = analysis.report
        #expect(report.source.path == path && report.source.frames == 10 && report.source.framesWithPose == 10)
        #expect(report.source.width == 810 && report.source.height == 1080 && report.source.fps == 10)
        #expect(report.repCount == 0 && report.reps.isEmpty, "a person standing still does no squats")
        #expect(analysis.keySignal.values.count == 10 && analysis.keySignal.values.allSatisfy { ($0 ?? 0) > 150 },
                "standing: knees straight, \(analysis.keySignal.values)")
    }

    @Test("hands are landmarked when the rules need them (auto), when asked (on), and not when off")
    func handChoice() async throws {
        let path = try Clips.path("person.mp4")
        let wrist = try ExerciseRule(yaml: Self.wristRule, file: "wrist_demo.yaml")
        let off = try await Self.analyze(path, rule: wrist, hands: .off).report
        #expect(off.warnings.contains("unscorable: bent_wrist needs hand landmarks; the track has none (analyse with --hands)"))
        let auto = try await Self.analyze(path, rule: wrist).report
        #expect(!auto.warnings.contains { $0.contains("the track has none") }, "\(auto.warnings)")
        let on = try await Self.analyze(path, "squat", hands: .on).report
        #expect(!on.warnings.contains { $0.contains("hand") }, "\(on.warnings)")
    }

    @Test("a video cut short is scored as far as it decodes, with the loss among the warnings")
    func truncated() async throws {
        let whole = Clips.directory.appendingPathComponent("person-faststart.mp4").path
        try Clips.ffmpeg(["-i", try Clips.path("person.mp4"), "-c", "copy", "-movflags", "+faststart", whole])
        let data = try Data(contentsOf: URL(fileURLWithPath: whole))
        let cut = Clips.directory.appendingPathComponent("person-cut.mp4").path
        // The first frame, a key frame of a photo, is nearly all of the file; the
        // other nine are some 40 bytes each: cut off the last few of them.
        try data.prefix(data.count - 120).write(to: URL(fileURLWithPath: cut))
        let report = try await Self.analyze(cut, "squat").report
        #expect(report.source.frames > 0 && report.source.frames < 10)
        // The decoder's warnings come first.
        let first = try #require(report.warnings.first)
        #expect(first.hasPrefix("damaged_input: ") || first.hasPrefix("truncated_input: "), "\(report.warnings)")
        #expect(first.contains(cut))
    }

    @Test("what is not a video fails with the decoder's error")
    func notAVideo() async throws {
        let path = Clips.directory.appendingPathComponent("notes.mp4").path
        try Data("squat day: 5x5\n".utf8).write(to: URL(fileURLWithPath: path))
        let error = await #expect(throws: MediaError.self) { try await Self.analyze(path, "squat") }
        #expect(describeFailure(try #require(error)).kind == .badInput)
    }
}
