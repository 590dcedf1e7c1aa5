import Foundation
import Testing
import TestSupport

/// `spotter rules lint` on a directory of broken rule files, one per kind of
/// problem, each reported at its exact line and column.
@Suite("spotter rules lint")
struct RuleLintCommandTests {
    /// A kind of problem: the squat rule with `original` replaced by `broken`,
    /// and where and what lint must say (`needle` marks the line and column).
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var original: String
        var broken: String
        var needle: String
        var expected: String
        /// Where on the needle's line the column points, when not at the needle.
        var at: String?
        var description: String { name }
    }

    static let cases = [
        Case(name: "unknown-key", original: "min_range: 35", broken: "min_rang: 35", needle: "min_rang",
             expected: "error: reps: unknown key \"min_rang\""),
        Case(name: "unknown-landmark", original: "angle: [hip, knee, ankle]", broken: "angle: [hip, knee, ankel]", needle: "ankel",
             expected: "error: signals.knee.angle[2]: unknown landmark \"ankel\""),
        Case(name: "unknown-signal", original: "signal: torso_lean", broken: "signal: torso_leen", needle: "torso_leen",
             expected: "error: metrics.max_torso_lean.signal: no signal \"torso_leen\" (defined: knee, knee_angle, torso_lean, knee_track)"),
        Case(name: "unknown-placeholder", original: "{value}° at the bottom", broken: "{valeu}° at the bottom", needle: "\"Knee angle reached",
             expected: "error: faults[0].message: unknown placeholder {valeu}"),
        Case(name: "thresholds", original: "active: 144", broken: "active: 145", needle: "active: 145",
             expected: "error: reps.active: rest and active thresholds must differ", at: "145"),
        Case(name: "never-fires", original: "    above: 100", broken: "    above: 190", needle: "above: 190",
             expected: "error: fault shallow_depth can never fire: knee_angle is an angle, never above 195°"),
        Case(name: "unseen-view", original: "    views: [side]\n    message: \"Knee", broken: "    views: [front]\n    message: \"Knee",
             needle: "views: [front]", expected: "error: fault shallow_depth is judged from front, but its signal knee_angle is measured in the side view's picture"),
        Case(name: "unused-signal", original: "signals:\n", broken: "signals:\n  spare:\n    distance: [hip, ankle]\n", needle: "spare:",
             expected: "warning: signal spare is not used by the reps, a metric, a fault or the position"),
        Case(name: "narrow-band", original: "min_range: 35              # and moves at least 35° each way\n  rhythm_min_range: 25",
             broken: "min_range: 5\n  rhythm_min_range: 5", needle: "min_range: 5",
             expected: "warning: reps: min_range 5.0° is narrower than MediaPipe's noise on a joint angle (about 10°)"),
        Case(name: "narrow-rhythm", original: "rhythm_min_range: 25", broken: "rhythm_min_range: 6", needle: "rhythm_min_range: 6",
             expected: "warning: reps: rhythm_min_range 6.0° is narrower than MediaPipe's noise on a joint angle (about 10°)"),
    ]

    @Test("each kind of problem is reported at its line and column, with a hint", arguments: cases)
    func problem(_ kind: Case) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-lint-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let squat = try String(contentsOfFile: RuleFiles.directory + "/squat.yaml", encoding: .utf8)
        try #require(squat.contains(kind.original))
        let text = squat.replacingOccurrences(of: kind.original, with: kind.broken)
        let file = directory.appendingPathComponent("\(kind.name).yaml").path
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        let line = try #require(lines.firstIndex { $0.contains(kind.needle) })
        let column = lines[line].distance(from: lines[line].startIndex, to: lines[line].range(of: kind.at ?? kind.needle)!.lowerBound) + 1

        let outcome = try await SpotterProcess.run(["rules", "lint", file])
        let output = String(decoding: outcome.standardOutput, as: UTF8.self)
        #expect(output.contains("\(file):\(line + 1):\(column): \(kind.expected)"), "\(output)")
        #expect(output.contains("\n    hint: "), "\(output)")
        #expect(outcome.status == (kind.expected.hasPrefix("error") ? 65 : 0), "\(output)")

        let json = try await SpotterProcess.run(["rules", "lint", "--json", file])
        let diagnostics = try #require(try JSONSerialization.jsonObject(with: json.standardOutput) as? [[String: Any]])
        #expect(diagnostics.contains {
            $0["file"] as? String == file && $0["line"] as? Int == line + 1 && $0["column"] as? Int == column
                && $0["severity"] as? String == String(kind.expected.prefix { $0 != ":" }) && ($0["hint"] as? String)?.isEmpty == false
        }, "\(diagnostics)")
    }

    @Test("a directory of broken rule files, one per kind: every problem at its place, exit 65")
    func directory() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-lint-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let squat = try String(contentsOfFile: RuleFiles.directory + "/squat.yaml", encoding: .utf8)
        var expected: [String] = []
        for kind in Self.cases {
            let text = squat.replacingOccurrences(of: kind.original, with: kind.broken)
            // Named after its exercise, as a rules directory's files must be.
            let exercise = kind.name.replacingOccurrences(of: "-", with: "_")
            let file = directory.appendingPathComponent("\(exercise).yaml").path
            try text.replacingOccurrences(of: "exercise: squat", with: "exercise: \(exercise)").write(toFile: file, atomically: true, encoding: .utf8)
            let lines = text.components(separatedBy: "\n")
            let line = try #require(lines.firstIndex { $0.contains(kind.needle) })
            let column = lines[line].distance(from: lines[line].startIndex, to: lines[line].range(of: kind.at ?? kind.needle)!.lowerBound) + 1
            expected.append("\(file):\(line + 1):\(column): \(kind.expected)")
        }
        let outcome = try await SpotterProcess.run(["rules", "lint", directory.path])
        let output = String(decoding: outcome.standardOutput, as: UTF8.self)
        #expect(outcome.status == 65)
        for line in expected { #expect(output.contains(line), "\(line)\n\(output)") }
        #expect(output.hasSuffix("7 error(s), 3 warning(s) in 10 file(s)\n"), "\(output)")
    }

    @Test("broken YAML is reported where the parser stopped; the repository's rules are clean")
    func syntaxAndRepository() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-lint-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("syntax.yaml").path
        try "exercise: demo\nversion: 1\ntitle: [Demo\nsignals:\n  knee:\n    angle: [hip, knee, ankle]\n".write(toFile: file, atomically: true, encoding: .utf8)
        let outcome = try await SpotterProcess.run(["rules", "lint", file])
        let output = String(decoding: outcome.standardOutput, as: UTF8.self)
        #expect(outcome.status == 65 && output.contains("\(file):4:8: error: not valid YAML: did not find expected ',' or ']'"), "\(output)")

        let repository = try await SpotterProcess.run(["rules", "lint"])
        #expect(repository.status == 0 && String(decoding: repository.standardOutput, as: UTF8.self).hasSuffix("0 error(s), 0 warning(s) in 8 file(s)\n"))
    }
}
