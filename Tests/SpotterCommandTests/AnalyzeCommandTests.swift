import Foundation
import LandmarkTracks
import SyntheticMotion
import TestSupport
import Testing

/// `spotter analyze` on landmark tracks, and `spotter rules`, run as users run them.
@Suite("spotter analyze and rules")
struct AnalyzeCommandTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-analyze-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// A synthetic set of `exercise`, written as a track file; with its truth.
    func trackFile(_ exercise: String, seed: UInt64 = 5, reps: Int = 5) throws -> (path: String, set: SyntheticSet) {
        var conditions = SetConditions()
        conditions.reps = reps
        let set = SyntheticSessions.make(exercise, conditions, seed: seed)
        let file = path("\(exercise)-\(seed).jsonl")
        try LandmarkTrackWriter.jsonLines(of: set.track).write(to: URL(fileURLWithPath: file))
        return (file, set)
    }

    func json(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("--json prints exactly one spotter.report/v1 document on stdout, with the right reps")
    func jsonReport() async throws {
        let (track, set) = try trackFile("squat")
        let outcome = try await SpotterProcess.run(["analyze", "--landmarks", track, "--exercise", "squat", "--json"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let report = try json(outcome.standardOutput)
        #expect(report["format"] as? String == "spotter.report/v1")
        #expect(report["exercise"] as? String == "squat" && report["rules_version"] as? String == "squat@\(SpotterProcess.shippedVersion(of: "squat"))")
        #expect(report["rep_count"] as? Int == set.reps.count)
        #expect(report.keys.contains("hold_ms") && report["hold_ms"] is NSNull)
        // Contracts §3's additive fields.
        #expect(report["view"] as? String == "side" && report["count_confidence"] as? String == "high")
        #expect((report["excluded"] as? [Any])?.isEmpty == true && report["not_judged"] is [Any])
        let source = try #require(report["source"] as? [String: Any])
        #expect(source["frames"] as? Int == set.track.frames.count && source["width"] as? Int == 1280)
        for key in ["path", "fps", "height", "duration_ms", "frames_with_pose"] { #expect(source[key] != nil, "source.\(key)") }
        let reps = try #require(report["reps"] as? [[String: Any]])
        for rep in reps {
            for key in ["index", "start_ms", "bottom_ms", "end_ms", "metrics", "faults"] { #expect(rep[key] != nil, "reps[].\(key)") }
            let metrics = try #require(rep["metrics"] as? [String: Double])
            #expect(metrics["min_knee_angle"] != nil && metrics["duration_ms"] != nil)
        }
        let faults = try #require(report["faults"] as? [[String: Any]])
        let truth = set.reps.reduce(0) { $0 + $1.faults.count }
        #expect(faults.count >= truth && truth > 0, "the set has faults")
        for fault in faults {
            for key in ["code", "rep", "start_ms", "end_ms", "severity", "message"] { #expect(fault[key] != nil, "faults[].\(key)") }
        }
    }

    @Test("a plank reports hold_ms and no reps")
    func hold() async throws {
        let (track, set) = try trackFile("plank")
        let outcome = try await SpotterProcess.run(["analyze", "--landmarks", track, "--exercise", "plank", "--json"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let report = try json(outcome.standardOutput)
        #expect(report["rep_count"] as? Int == 0)
        let held = try #require(report["hold_ms"] as? Int)
        let truth = try #require(set.holdMilliseconds)
        #expect(abs(held - truth) <= truth / 10, "held \(held) ms, truth \(truth) ms")
    }

    @Test("--out and --html write the report and a self-contained page; stdout has the summary")
    func files() async throws {
        let (track, set) = try trackFile("bicep_curl", seed: 8)
        let out = path("curl.json"), html = path("curl.html")
        let outcome = try await SpotterProcess.run(["analyze", "--landmarks", track, "--exercise", "bicep_curl", "--out", out, "--html", html])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let summary = String(decoding: outcome.standardOutput, as: UTF8.self)
        #expect(summary.contains("\(set.reps.count) reps"), "\(summary)")
        let report = try json(try Data(contentsOf: URL(fileURLWithPath: out)))
        #expect(report["rep_count"] as? Int == set.reps.count)

        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.hasPrefix("<!doctype html>") && page.contains("<svg") && page.contains("</html>"))
        #expect(page.contains("Biceps curl") && page.contains("Elbow angle over time"))
        #expect(page.components(separatedBy: #"<rect class="rep"#).count - 1 == set.reps.count, "a band per rep")
        #expect(page.components(separatedBy: "<tr").count - 1 >= set.reps.count + 1)
        for code in Set((report["faults"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }) {
            #expect(page.contains(#"<rect class="fault"#) && page.contains(code))
        }
        // Nothing fetched: no scripts, stylesheets, images or fonts from elsewhere.
        for external in ["<script", "<link", "<img", "src=", "@import", "url("] { #expect(!page.contains(external), "\(external)") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".") }.isEmpty)
    }

    @Test("a malformed track exits 65 naming file and line, and leaves no output behind")
    func malformedTrack() async throws {
        let (track, _) = try trackFile("squat")
        var lines = try String(contentsOfFile: track, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        lines[40] = lines[40].replacingOccurrences(of: "\"t_ms\"", with: "\"t_ns\"")[...]
        try lines.joined(separator: "\n").write(toFile: track, atomically: true, encoding: .utf8)
        let out = path("report.json"), html = path("report.html")
        let outcome = try await SpotterProcess.run(["analyze", "--landmarks", track, "--exercise", "squat", "--out", out, "--html", html, "--json"])
        #expect(outcome.status == 65)
        #expect(outcome.errorLines == ["spotter: error: \(track):41: the frame has no \"t_ms\""], "\(outcome.standardError)")
        #expect(outcome.standardOutput.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: out) && !FileManager.default.fileExists(atPath: html))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".") }.isEmpty)
    }

    @Test("a broken rule file exits 65 with file:line; an unknown exercise exits 64 listing the known ones")
    func brokenRules() async throws {
        let (track, _) = try trackFile("squat")
        let rules = path("rules")
        try FileManager.default.createDirectory(atPath: rules, withIntermediateDirectories: true)
        try "exercise: squat\nversion: 1\nsignals:\n  knee:\n    angle: [hip, knee, toe]\n"
            .write(toFile: rules + "/squat.yaml", atomically: true, encoding: .utf8)
        let broken = try await SpotterProcess.run(["analyze", "--landmarks", track, "--exercise", "squat", "--rules-dir", rules])
        #expect(broken.status == 65)
        #expect(broken.errorLines.count == 1 && broken.errorLines.first?.hasPrefix("spotter: error: \(rules)/squat.yaml:5: ") == true,
                "\(broken.standardError)")
        let fromEnvironment = try await SpotterProcess.run(
            ["analyze", "--landmarks", track, "--exercise", "squat"], environment: ["SPOTTER_RULES_DIR": rules])
        #expect(fromEnvironment.status == 65)

        let unknown = try await SpotterProcess.run(["analyze", "--landmarks", track, "--exercise", "yoga"])
        #expect(unknown.status == 64)
        #expect(unknown.errorLines.first?.contains("no rule for exercise \"yoga\"") == true)
        #expect(unknown.errorLines.first?.contains("squat") == true)
    }

    @Test("a video is decoded, landmarked and scored; --json, --out and --html as for tracks")
    func video() async throws {
        let clip = try Clips.path("person.mp4")
        let out = path("person.json"), html = path("person.html")
        let outcome = try await SpotterProcess.run(["analyze", clip, "--exercise", "squat", "--json", "--out", out, "--html", html])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let report = try json(outcome.standardOutput)
        #expect(try json(try Data(contentsOf: URL(fileURLWithPath: out)))["source"] as? [String: AnyHashable]
            == report["source"] as? [String: AnyHashable])
        let source = try #require(report["source"] as? [String: Any])
        #expect(source["path"] as? String == clip && source["frames"] as? Int == 10 && source["frames_with_pose"] as? Int == 10)
        #expect(report["rep_count"] as? Int == 0)
        #expect(try String(contentsOfFile: html, encoding: .utf8).contains("Knee angle over time"))
    }

    @Test("a video that is not one exits 65, and a missing engine 69, leaving no output behind")
    func videoFailures() async throws {
        let notes = path("notes.mp4")
        try "squat day".write(toFile: notes, atomically: true, encoding: .utf8)
        let out = path("report.json")
        let bad = try await SpotterProcess.run(["analyze", notes, "--exercise", "squat", "--out", out])
        #expect(bad.status == 65)
        #expect(bad.errorLines.count == 1 && bad.errorLines[0].contains(notes), "\(bad.standardError)")

        let missing = try await SpotterProcess.run(
            ["analyze", try Clips.path("person.mp4"), "--exercise", "squat", "--out", out],
            environment: ["SPOTTER_MEDIAPIPE_LIBRARY": path("libmediapipe.so")])
        #expect(missing.status == 69)
        #expect(missing.errorLines.count == 1 && missing.errorLines[0].contains("ops/setup"), "\(missing.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["notes.mp4"])
    }

    @Test("bad usage exits 64", arguments: [
        ["analyze", "--exercise", "squat"],
        ["analyze", "x.mp4", "--landmarks", "x.jsonl", "--exercise", "squat"],
        ["analyze", "--landmarks", "x.jsonl", "--exercise", "squat", "--fps", "10"],
        ["analyze", "--landmarks", "x.jsonl", "--exercise", "squat", "--hands", "on"],
        ["analyze", "--landmarks", "x.jsonl", "--exercise", "squat", "--delegate", "gpu"],
        ["landmarks", "x.mp4", "--delegate", "tpu"],
        ["analyze", "x.mp4", "--exercise", "squat", "--hands", "sometimes"],
        ["analyze", "x.mp4"],
        ["rules", "test", "squat", "--expect-reps", "4"],
        ["rules", "test", "squat", "lunge", "--landmarks", "x.jsonl"],
        ["rules", "test", "squat", "--landmarks", "x.jsonl", "--expect-faults", "shallow_depth"],
    ])
    func badUsage(_ arguments: [String]) async throws {
        #expect(try await SpotterProcess.run(arguments).status == 64)
    }

    @Test("rules list, show and lint describe the repository's rules")
    func listShowLint() async throws {
        let list = try await SpotterProcess.run(["rules", "list"])
        #expect(list.status == 0)
        let text = String(decoding: list.standardOutput, as: UTF8.self)
        for exercise in SyntheticSessions.exercises { #expect(text.contains("\(exercise)@"), "\(exercise)") }
        #expect(text.contains("hold on body_level"))

        let show = try await SpotterProcess.run(["rules", "show", "plank"])
        #expect(show.status == 0 && String(decoding: show.standardOutput, as: UTF8.self).contains("code: hip_sag"))

        let lint = try await SpotterProcess.run(["rules", "lint"])
        #expect(lint.status == 0, "\(lint.standardError)")
        #expect(String(decoding: lint.standardOutput, as: UTF8.self).split(separator: "\n").count == 9, "8 files and the totals")

        let broken = path("broken.yaml")
        try "exercise: demo\nversion: one\n".write(toFile: broken, atomically: true, encoding: .utf8)
        let failing = try await SpotterProcess.run(["rules", "lint", broken])
        #expect(failing.status == 65)
        #expect(String(decoding: failing.standardOutput, as: UTF8.self).hasPrefix("\(broken):2:10: error: version: expected a whole number\n"),
                "\(String(decoding: failing.standardOutput, as: UTF8.self))")
    }

    @Test("rules test checks a draft rule against tracks: exit 0 when expectations hold, 1 when not")
    func ruleTest() async throws {
        let (track, set) = try trackFile("squat", seed: 21)
        let leans = set.reps.filter { $0.faults.contains("forward_lean") }.count
        var expected = "forward_lean=\(leans)"
        if set.reps.contains(where: { $0.faults.contains("shallow_depth") }) {
            expected += ",shallow_depth=\(set.reps.filter { $0.faults.contains("shallow_depth") }.count)"
        }
        let passing = try await SpotterProcess.run(
            ["rules", "test", "squat", "--landmarks", track, "--expect-reps", "\(set.reps.count)", "--expect-faults", expected])
        #expect(passing.status == 0, "\(String(decoding: passing.standardOutput, as: UTF8.self))")

        // A draft that leans stricter finds more.
        let draft = path("squat-draft.yaml")
        let published = try String(contentsOfFile: RuleFiles.directory + "/squat.yaml", encoding: .utf8)
        try published.replacingOccurrences(of: "above: 45", with: "above: 5").write(toFile: draft, atomically: true, encoding: .utf8)
        let failing = try await SpotterProcess.run(
            ["rules", "test", draft, "--landmarks", track, "--expect-reps", "\(set.reps.count)", "--expect-faults", expected])
        #expect(failing.status == 1)
        let text = String(decoding: failing.standardOutput, as: UTF8.self)
        #expect(text.contains("FAIL \(track)") && text.contains("expected forward_lean=\(leans), found \(set.reps.count)"), "\(text)")
    }
}

@Suite("spotter rules test on the golden cases")
struct GoldenCaseCommandTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-golden-\(UUID())")

    /// A copy of the repository's rules directory, golden cases included.
    func rulesCopy() throws -> URL {
        let copy = directory.appendingPathComponent("Rules")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: URL(fileURLWithPath: RuleFiles.directory), to: copy)
        return copy
    }

    @Test("every exercise's golden cases pass with the repository's rules")
    func repository() async throws {
        let outcome = try await SpotterProcess.run(["rules", "test"])
        let text = String(decoding: outcome.standardOutput, as: UTF8.self)
        #expect(outcome.status == 0, "\(text)\(outcome.standardError)")
        for exercise in ["squat", "pushup", "bicep_curl", "lunge", "overhead_press", "jumping_jack", "deadlift", "plank"] {
            #expect(text.contains("\n\(exercise) "), "golden cases of \(exercise)")
        }
        #expect(!text.contains("FAIL") && text.contains(" golden case(s) pass\n"))
    }

    @Test("a changed rule fails its cases with the differences; an exercise without cases fails; a broken expected file is 65")
    func failures() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let rules = try rulesCopy()
        let squat = rules.appendingPathComponent("squat.yaml")
        try String(contentsOf: squat, encoding: .utf8).replacingOccurrences(of: "min_range: 35", with: "min_range: 170")
            .write(to: squat, atomically: true, encoding: .utf8)
        let changed = try await SpotterProcess.run(["rules", "test", "squat", "--rules-dir", rules.path])
        let text = String(decoding: changed.standardOutput, as: UTF8.self)
        #expect(changed.status == 1, "\(text)")
        #expect(text.contains("squat/side:\n  reps: expected 4, found 0") && text.contains("0 of 3 golden case(s) pass; 3 failed"), "\(text)")
        // The half-squat still counts none, but its no_reps line names the least a rep now moves.
        #expect(text.contains("warning not expected: no_reps: knee moved only between 151° and 177°, under the 170° a rep moves"), "\(text)")

        try FileManager.default.removeItem(at: rules.appendingPathComponent("tests/lunge"))
        let none = try await SpotterProcess.run(["rules", "test", "lunge", "--rules-dir", rules.path])
        #expect(none.status == 1 && String(decoding: none.standardOutput, as: UTF8.self).contains("no golden cases"))

        try Data("{\"reps\": \"four\"}".utf8).write(to: rules.appendingPathComponent("tests/pushup/side.expected.json"))
        let broken = try await SpotterProcess.run(["rules", "test", "pushup", "--rules-dir", rules.path])
        #expect(broken.status == 65 && broken.errorLines.first?.contains("side.expected.json") == true, "\(broken.standardError)")
    }
}

/// The repository's Rules/ directory.
enum RuleFiles {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Rules").path
}
