import Foundation
import TestSupport
import Testing

/// `spotter analyze` end to end on videos of a synthetic person squatting, filmed
/// from the side, whose reps and knee angles are known exactly: rendered by
/// `ops/render/mannequin.py` into the test data directory at set-up
/// (`ops/setup --test-data` runs `ops/render-test-videos`), each with its ground truth.
@Suite("spotter analyze on rendered videos")
struct RenderedVideoTests {
    /// How far a reported bottom may be from the true one, and the measured knee angle from the true angle.
    /// MediaPipe reads this mannequin's knee about 10–13° straighter than it is at the bottom.
    static let bottomToleranceMilliseconds = 300
    static let angleToleranceDegrees = 20.0

    /// `NAME.truth.json`, as `ops/render/mannequin.py --truth` writes it.
    struct Truth: Decodable {
        struct Rep: Decodable {
            var index: Int
            var startMs: Int
            var bottomMs: Int
            var endMs: Int
            var bottomKneeAngle: Double
        }

        var exercise: String
        var view: String
        var fps: Int
        var frames: Int
        var repCount: Int
        var reps: [Rep]
    }

    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-rendered-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// A rendered clip's path and its truth. Set-up makes them: a missing one fails, it is not skipped.
    func clip(_ name: String) throws -> (path: String, truth: Truth) {
        let video = TestAssets.photo("\(name).mp4"), truthFile = TestAssets.photo("\(name).truth.json")
        for file in [video, truthFile] {
            try #require(FileManager.default.fileExists(atPath: file), "\(file) is missing: ops/setup --test-data renders it")
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let truth = try decoder.decode(Truth.self, from: try Data(contentsOf: URL(fileURLWithPath: truthFile)))
        try #require(truth.exercise == "squat" && truth.view == "side" && truth.reps.count == truth.repCount)
        return (video, truth)
    }

    /// `spotter analyze VIDEO --exercise squat --json`'s report, after checking that the person was found.
    func analyze(_ video: String, _ truth: Truth, _ extra: [String] = []) async throws -> [String: Any] {
        let outcome = try await SpotterProcess.run(["analyze", video, "--exercise", "squat", "--json"] + extra)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: outcome.standardOutput) as? [String: Any])
        #expect(report["format"] as? String == "spotter.report/v1")
        let source = try #require(report["source"] as? [String: Any])
        let frames = try #require(source["frames"] as? Int), withPose = try #require(source["frames_with_pose"] as? Int)
        #expect(frames == truth.frames)
        // No reps must not mean nobody seen: the person is found in (nearly) every frame.
        #expect(withPose * 10 >= frames * 9, "a pose in \(withPose) of \(frames) frames")
        return report
    }

    @Test("squats to a true 80° knee: every rep counted, each bottom on time and its knee angle near the truth")
    func squats() async throws {
        let (video, truth) = try clip("mannequin-squat")
        let report = try await analyze(video, truth)
        #expect(report["rep_count"] as? Int == truth.repCount)
        let reps = try #require(report["reps"] as? [[String: Any]])
        try #require(reps.count == truth.repCount, "\(reps.count) reps reported, \(truth.repCount) rendered")
        for (rep, expected) in zip(reps, truth.reps) {
            let bottom = try #require(rep["bottom_ms"] as? Int)
            let metrics = try #require(rep["metrics"] as? [String: Double])
            let angle = try #require(metrics["min_knee_angle"])
            #expect(rep["index"] as? Int == expected.index)
            #expect(abs(bottom - expected.bottomMs) <= Self.bottomToleranceMilliseconds,
                    "rep \(expected.index): bottom at \(bottom) ms, truth \(expected.bottomMs) ms")
            #expect(abs(angle - expected.bottomKneeAngle) <= Self.angleToleranceDegrees,
                    "rep \(expected.index): min knee angle \(angle)°, truth \(expected.bottomKneeAngle)°")
        }
    }

    @Test("dips to a true 135° knee are no squat reps")
    func halfSquats() async throws {
        let (video, truth) = try clip("mannequin-half-squat")
        try #require(truth.repCount > 0 && truth.reps.allSatisfy { $0.bottomKneeAngle > 125 }, "the clip dips above the active zone")
        let report = try await analyze(video, truth)
        #expect(report["rep_count"] as? Int == 0)
        #expect((report["reps"] as? [Any])?.isEmpty == true)
    }

    @Test("--html writes a page with the knee angle plotted and a band per rep")
    func page() async throws {
        let (video, truth) = try clip("mannequin-squat")
        let html = path("squat.html")
        _ = try await analyze(video, truth, ["--html", html])
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.hasPrefix("<!doctype html>") && page.contains("<svg") && page.contains("</html>"))
        #expect(page.contains("Back squat") && page.contains("Knee angle over time"))
        #expect(page.components(separatedBy: #"<rect class="rep"#).count - 1 == truth.repCount, "a band per rep")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["squat.html"])
    }
}

/// `spotter analyze` end to end on rendered videos of every exercise from the
/// side, the front and at 45° (`ops/render-test-videos`: four clean reps, or a
/// 7 s plank, 640×480 at 15 frames/s): the real decode, landmarks and rules.
@Suite("spotter analyze on rendered videos of every exercise and view")
struct RenderedExerciseTests {
    /// How far a reported turn may be from the true one.
    static let turnToleranceMilliseconds = 500
    /// How far the plank's hold may be from the true one: issue 11's 5 %, and
    /// one frame more (MediaPipe's landmarks may differ a little with the CPU
    /// that runs them, which moves an end by a frame; see the README).
    static let holdTolerance = 0.05

    /// `NAME.truth.json` as `ops/render/mannequin.py --truth` writes it for these clips.
    struct Truth: Decodable {
        struct Rep: Decodable {
            var startMs: Int
            var bottomMs: Int
            var endMs: Int
        }

        var exercise: String
        var view: String
        var fps: Int
        var repCount: Int
        var reps: [Rep]
        var holdMs: Int?
    }

    static let cases: [(exercise: String, view: String)] = [
        "squat", "pushup", "bicep_curl", "lunge", "overhead_press", "jumping_jack", "deadlift", "plank",
    ].flatMap { exercise in ["side", "front", "45"].map { (exercise, $0) } }

    @Test("the count (or hold) is the rendered one, each turn on time", arguments: cases.map { "\($0.exercise)-\($0.view)" })
    func clip(_ name: String) async throws {
        let video = TestAssets.photo("mannequin-\(name).mp4"), truthFile = TestAssets.photo("mannequin-\(name).truth.json")
        for file in [video, truthFile] {
            try #require(FileManager.default.fileExists(atPath: file), "\(file) is missing: ops/setup --test-data renders it")
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let truth = try decoder.decode(Truth.self, from: try Data(contentsOf: URL(fileURLWithPath: truthFile)))
        let outcome = try await SpotterProcess.run(["analyze", video, "--exercise", truth.exercise, "--json"])
        try #require(outcome.status == 0, "\(outcome.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: outcome.standardOutput) as? [String: Any])
        let warnings = report["warnings"] ?? []
        if let hold = truth.holdMs {
            let held = try #require(report["hold_ms"] as? Int, "\(name): no hold reported")
            let frameMs = 1000 / Double(truth.fps)
            #expect(abs(Double(held - hold)) <= Self.holdTolerance * Double(hold) + frameMs, "\(name): held \(held) ms, rendered \(hold) ms")
            return
        }
        let reps = try #require(report["reps"] as? [[String: Any]])
        #expect(report["rep_count"] as? Int == truth.repCount, "\(name): \(reps.count) reps, \(truth.repCount) rendered; \(warnings)")
        guard reps.count == truth.reps.count else { return }
        for (rep, expected) in zip(reps, truth.reps) {
            let turn = try #require(rep["bottom_ms"] as? Int)
            #expect(abs(turn - expected.bottomMs) <= Self.turnToleranceMilliseconds,
                    "\(name): turn at \(turn) ms, rendered at \(expected.bottomMs) ms")
        }
    }
}
