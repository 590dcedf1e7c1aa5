import Analysis
import ArgumentParser
import Foundation
import Rules

/// The golden cases of the rules directory (`tests/NAME/CASE.jsonl` with
/// `CASE.expected.json` beside it), checked by `spotter rules test`.
struct GoldenCases {
    let directory: String

    /// What a case's track must give.
    struct Expected: Decodable {
        var reps: Int
        /// Reps carrying each code (fault episodes, for holds); codes not named must not occur.
        var faults: [String: Int]
        /// Every warning, word for word, in any order.
        var warnings: [String]
        /// For holds: the least and most time held, milliseconds.
        var holdMilliseconds: [Int]?

        enum CodingKeys: String, CodingKey {
            case reps, faults, warnings
            case holdMilliseconds = "hold_ms"
        }
    }

    /// Checks `exercises` (every one of the directory when empty) and prints a
    /// table; exit 1 when a case fails or an exercise has none.
    func check(_ exercises: [String]) throws {
        let names: [String]
        do {
            names = exercises.isEmpty ? try RuleBook(directory: directory).rules.keys.sorted() : exercises
        } catch {
            throw commandFailure(error)
        }
        var rows: [[String]] = [], details: [String] = [], failed = 0, cases = 0
        for exercise in names {
            let rule: ExerciseRule
            do { rule = try RuleBook.rule(for: exercise, in: directory) } catch { throw commandFailure(error) }
            let folder = "\(directory)/tests/\(exercise)"
            let tracks = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".jsonl") }.sorted()
            if tracks.isEmpty {
                rows.append([exercise, "—", "FAIL", "no golden cases in \(folder)"])
                failed += 1
                continue
            }
            for track in tracks {
                cases += 1
                let name = String(track.dropLast(".jsonl".count))
                let (found, problems) = try run(rule, track: "\(folder)/\(track)", expected: "\(folder)/\(name).expected.json")
                rows.append([exercise, name, problems.isEmpty ? "pass" : "FAIL", found])
                if !problems.isEmpty {
                    failed += 1
                    details += ["\(exercise)/\(name):"] + problems.map { "  \($0)" }
                }
            }
        }
        print(table([["exercise", "case", "result", "found"]] + rows), terminator: "")
        for line in details { print(line) }
        print("\(cases - min(failed, cases)) of \(cases) golden case(s) pass\(failed > 0 ? "; \(failed) failed" : "")")
        if failed > 0 { throw ExitCode(1) }
    }

    /// Scores one case: what was found, in a few words, and every difference from what was expected.
    private func run(_ rule: ExerciseRule, track: String, expected path: String) throws -> (String, [String]) {
        let expected: Expected
        let report: SessionReport
        do {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw RuleError(file: path, line: 0, reason: "missing: every golden track needs its expected file beside it")
            }
            do { expected = try JSONDecoder().decode(Expected.self, from: data) } catch {
                throw RuleError(file: path, line: 0, reason: "not an expected-result file (reps, faults, warnings, hold_ms): \(error)")
            }
            report = try SessionAnalysis.scoreTrack(at: track, rule: rule).report
        } catch {
            throw commandFailure(error)
        }
        let faults = Spotter.RulesCommand.Test.faultCounts(in: report)
        var problems: [String] = []
        if report.repCount != expected.reps { problems.append("reps: expected \(expected.reps), found \(report.repCount)") }
        for code in Set(expected.faults.keys).union(faults.keys).sorted() where expected.faults[code, default: 0] != faults[code, default: 0] {
            problems.append("\(code): expected \(expected.faults[code, default: 0]), found \(faults[code, default: 0])")
        }
        problems += expected.warnings.filter { !report.warnings.contains($0) }.map { "warning missing: \($0)" }
        problems += report.warnings.filter { !expected.warnings.contains($0) }.map { "warning not expected: \($0)" }
        if let range = expected.holdMilliseconds, range.count == 2 {
            let held = report.holdMilliseconds ?? 0
            if !(range[0]...max(range[0], range[1])).contains(held) { problems.append("held \(held) ms, expected \(range[0])–\(range[1]) ms") }
        }
        let faultText = faults.isEmpty ? "no faults" : faults.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        let found = (report.holdMilliseconds.map { "held \($0) ms" } ?? "\(report.repCount) reps") + ", \(faultText), \(report.warnings.count) warning(s)"
        return (found, problems)
    }
}
