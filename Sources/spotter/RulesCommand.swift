import Analysis
import ArgumentParser
import Contracts
import Foundation
import Rules

extension Spotter {
    /// Rule authoring, for admins: see what there is, check files, try them on tracks.
    struct RulesCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rules",
            abstract: "Author and check the exercise rules (Rules/*.yaml; see Rules/README.md).",
            subcommands: [List.self, Show.self, Lint.self, Test.self, Publish.self, Versions.self, Rollback.self, Diff.self, Rescore.self])
    }
}

extension Spotter.RulesCommand {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the exercises, their versions, what they count and their fault codes.")

        @OptionGroup var rules: RulesLocation

        func run() throws {
            let directory = try rules.directory()
            let book: RuleBook
            do { book = try RuleBook(directory: directory) } catch { throw commandFailure(error) }
            let rows = book.rules.values.sorted { $0.exercise < $1.exercise }.map { rule in
                let faults = rule.faultCodes.map { code in
                    rule.faultViews[code].map { "\(code) (\($0.map(\.rawValue).joined(separator: "/")))" } ?? code
                }
                return [rule.exercise, rule.rulesVersion, rule.movementSummary, faults.joined(separator: ", ")]
            }
            print(table([["exercise", "version", "counts", "faults (views judged from, when not any)"]] + rows), terminator: "")
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print an exercise's rule file.")

        @Argument(help: "The exercise.")
        var exercise: String

        @OptionGroup var rules: RulesLocation

        func run() throws {
            let directory = try rules.directory()
            do {
                let rule = try RuleBook.rule(for: exercise, in: directory)
                guard let text = FileManager.default.contents(atPath: rule.file) else {
                    throw RuleError(file: rule.file, line: 0, reason: "cannot read the file")
                }
                print("# \(rule.file) (\(rule.rulesVersion))")
                FileHandle.standardOutput.write(text)
            } catch {
                throw commandFailure(error)
            }
        }
    }

    struct Lint: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check rule files: every problem as file:line:col: error|warning: …, exit 65 if there is an error.",
            discussion: """
                Besides reading each file as a rule (YAML, keys, landmarks, signals, thresholds, message \
                placeholders), finds faults that can never fire, faults judged from views that cannot show \
                their signal (errors), signals nothing uses and rep bands narrower than MediaPipe's noise \
                (warnings); each with a hint. With no files, checks every file of the rules directory, and \
                that each is named after its exercise. --json prints the problems as a JSON array for editors.
                """)

        @Argument(help: "Rule files or directories of them to check (default: the whole rules directory).")
        var files: [String] = []

        @Flag(help: "Print the problems as a JSON array (file, line, column, severity, message, hint).")
        var json = false

        @OptionGroup var rules: RulesLocation

        func run() throws {
            // A directory's files must be named after their exercises, as in the rules directory.
            var named: [(file: String, checkName: Bool)] = []
            do {
                for argument in files.isEmpty ? [try rules.directory()] : files {
                    var isDirectory: ObjCBool = false
                    if FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory), isDirectory.boolValue {
                        named += try RuleBook.files(in: argument).map { ($0, true) }
                    } else {
                        named.append((argument, false))
                    }
                }
            } catch {
                throw commandFailure(error)
            }
            var all: [RuleDiagnostic] = []
            var clean: [String] = []
            for (file, checkName) in named {
                guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8) else {
                    all.append(RuleDiagnostic(file: file, line: 0, column: 0, severity: .error, message: "cannot read the file as UTF-8 text", hint: nil))
                    continue
                }
                var found = RuleLint.diagnostics(file: file, text: text)
                if checkName, !found.contains(where: { $0.severity == .error }) {
                    do { _ = try RuleBook.load(directoryFile: file) } catch let error as RuleError {
                        found.append(RuleDiagnostic(file: file, line: 0, column: 0, severity: .error, message: error.reason, hint: "rename the file"))
                    }
                }
                all += found
                if !found.contains(where: { $0.severity == .error }), let rule = try? ExerciseRule(yaml: text, file: file) {
                    clean.append("ok  \(file) (\(rule.rulesVersion), \(rule.movementSummary), faults: \(rule.faultCodes.joined(separator: ", ")))")
                }
            }
            let errors = all.filter { $0.severity == .error }.count
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                FileHandle.standardOutput.write(try encoder.encode(all) + Data("\n".utf8))
            } else {
                for diagnostic in all {
                    print(diagnostic.description)
                    if let hint = diagnostic.hint { print("    hint: \(hint)") }
                }
                for line in clean { print(line) }
                print("\(errors) error(s), \(all.count - errors) warning(s) in \(named.count) file(s)")
            }
            if errors > 0 { throw ExitCode(CommandContract.exitStatus(of: .badInput)) }
        }
    }
}

/// Columns padded to their widest cell.
func table(_ rows: [[String]]) -> String {
    let widths = rows.reduce(into: [Int]()) { widths, row in
        for (index, cell) in row.enumerated() {
            if index < widths.count { widths[index] = max(widths[index], cell.count) } else { widths.append(cell.count) }
        }
    }
    return rows.map { row in
        row.enumerated().map { index, cell in
            index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
        }.joined(separator: "  ")
    }.joined(separator: "\n") + "\n"
}

extension Spotter.RulesCommand {
    struct Test: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check rules against their golden cases, or score given landmark tracks with a rule.",
            discussion: """
                With no --landmarks: every exercise named (all, when none is) is scored on its golden \
                cases — the tracks in the rules directory's tests/NAME/, each with NAME.expected.json \
                beside it (reps, fault counts by code, warnings, and for holds the range the time held \
                must fall in) — and a table says which pass, with the differences. \
                With --landmarks: RULE (an exercise, or the path of a rule file being written) scores \
                each track; its reps, faults and hold time are printed, and with --expect-… options \
                each track must match them. Fault counts are reps carrying the code (episodes, for holds). \
                Exit 0 when everything holds, 1 when something does not, 65 for a malformed track, rule or case.
                """)

        @Argument(help: "Exercises (default: every one); with --landmarks, one exercise or the path of a rule file.")
        var names: [String] = []

        @Option(name: .customLong("landmarks"), help: ArgumentHelp("A track to score; repeat for more.", valueName: "track.jsonl"))
        var tracks: [String] = []

        @Option(help: "The rep count each track must give.")
        var expectReps: Int?

        @Option(help: ArgumentHelp(
            "Fault counts each track must give, as CODE=N,… (codes not named must not occur; 'none' for no faults).",
            valueName: "codes"))
        var expectFaults: String?

        @Option(help: ArgumentHelp("The range the hold time must fall in, as MIN-MAX milliseconds.", valueName: "min-max"))
        var expectHoldMs: String?

        @OptionGroup var rules: RulesLocation

        func validate() throws {
            if !tracks.isEmpty, names.count != 1 { throw ValidationError("with --landmarks, give one exercise or rule file") }
            if tracks.isEmpty, expectReps != nil || expectFaults != nil || expectHoldMs != nil {
                throw ValidationError("the --expect-… options go with --landmarks tracks")
            }
            if let expectFaults { _ = try Self.faultCounts(expectFaults) }
            if let expectHoldMs { _ = try Self.holdRange(expectHoldMs) }
        }

        func run() throws {
            if tracks.isEmpty { return try GoldenCases(directory: try rules.directory()).check(names) }
            let rule = names[0]
            let isFile = rule.hasSuffix(".yaml") || rule.contains("/")
            let directory = isFile ? "" : try rules.directory()
            let exerciseRule: ExerciseRule
            do {
                exerciseRule = isFile ? try RuleBook.load(file: rule) : try RuleBook.rule(for: rule, in: directory)
            } catch {
                throw commandFailure(error)
            }
            var failed = 0
            for track in tracks {
                let report: SessionReport
                do { report = try SessionAnalysis.scoreTrack(at: track, rule: exerciseRule).report } catch { throw commandFailure(error) }
                let found = Self.faultCounts(in: report)
                let problems = expectations(report, found)
                let held = report.holdMilliseconds.map { "held \($0) ms; " } ?? "\(report.repCount) reps; "
                let faults = found.isEmpty ? "no faults" : "faults " + found.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
                print("\(problems.isEmpty ? "ok  " : "FAIL") \(track): \(exerciseRule.rulesVersion): \(held)\(faults)")
                for problem in problems { print("     \(problem)") }
                for warning in report.warnings { print("     warning: \(warning)") }
                failed += problems.isEmpty ? 0 : 1
            }
            if failed > 0 {
                print("\(failed) of \(tracks.count) track(s) did not meet the expectations")
                throw ExitCode(1)
            }
        }

        private func expectations(_ report: SessionReport, _ found: [String: Int]) -> [String] {
            var problems: [String] = []
            if let expectReps, report.repCount != expectReps {
                problems.append("expected \(expectReps) reps, found \(report.repCount)")
            }
            if let expectFaults, let expected = try? Self.faultCounts(expectFaults) {
                for code in Set(expected.keys).union(found.keys).sorted() where expected[code, default: 0] != found[code, default: 0] {
                    problems.append("expected \(code)=\(expected[code, default: 0]), found \(found[code, default: 0])")
                }
            }
            if let expectHoldMs, let range = try? Self.holdRange(expectHoldMs) {
                let held = report.holdMilliseconds ?? 0
                if !range.contains(held) { problems.append("expected a hold of \(range.lowerBound)–\(range.upperBound) ms, found \(held) ms") }
            }
            return problems
        }

        /// Reps carrying each code, or fault episodes in a hold.
        static func faultCounts(in report: SessionReport) -> [String: Int] {
            if report.holdMilliseconds != nil {
                return report.faults.reduce(into: [:]) { $0[$1.code, default: 0] += 1 }
            }
            return report.reps.reduce(into: [:]) { counts, rep in
                for code in Set(rep.faults) { counts[code, default: 0] += 1 }
            }
        }

        static func faultCounts(_ text: String) throws -> [String: Int] {
            if text == "none" { return [:] }
            var counts: [String: Int] = [:]
            for item in text.split(separator: ",") {
                let parts = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2, !parts[0].isEmpty, let count = Int(parts[1]), count >= 0 else {
                    throw ValidationError("--expect-faults takes CODE=N,… (or none), not \"\(item)\"")
                }
                counts[parts[0]] = count
            }
            return counts
        }

        static func holdRange(_ text: String) throws -> ClosedRange<Int> {
            let parts = text.split(separator: "-", maxSplits: 1).compactMap { Int($0) }
            guard parts.count == 2, parts[0] >= 0, parts[0] <= parts[1] else {
                throw ValidationError("--expect-hold-ms takes MIN-MAX in milliseconds, not \"\(text)\"")
            }
            return parts[0]...parts[1]
        }
    }
}
