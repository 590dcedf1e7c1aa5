import Foundation

/// The exercise rules of a directory (`Rules/`): one `NAME.yaml` file per exercise.
public struct RuleBook: Sendable {
    /// The directory the rules were read from.
    public let directory: String
    /// Rules by exercise name.
    public let rules: [String: ExerciseRule]

    /// Reads every `*.yaml` file of `directory`; the first broken file stops it
    /// with a `RuleError` naming the file and line.
    public init(directory: String) throws {
        self.directory = directory
        var rules: [String: ExerciseRule] = [:]
        for file in try Self.files(in: directory) {
            let rule = try Self.load(directoryFile: file)
            rules[rule.exercise] = rule
        }
        self.rules = rules
    }

    /// The paths of the rule files (`*.yaml`) of `directory`, sorted; a
    /// `RuleError` when it cannot be read or holds none.
    public static func files(in directory: String) throws -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".yaml") }.sorted()
        } catch {
            throw RuleError(file: directory, line: 0, reason: "cannot read the rules directory")
        }
        guard !names.isEmpty else { throw RuleError(file: directory, line: 0, reason: "no rule files (*.yaml)") }
        return names.map { directory + "/" + $0 }
    }

    /// Reads a file of a rules directory, which must be named after its exercise (`NAME.yaml`).
    public static func load(directoryFile file: String) throws -> ExerciseRule {
        let rule = try load(file: file)
        guard (file as NSString).lastPathComponent == rule.exercise + ".yaml" else {
            throw RuleError(file: file, line: 0, reason: "the file of exercise \"\(rule.exercise)\" must be named \(rule.exercise).yaml")
        }
        return rule
    }

    /// Reads one rule file.
    public static func load(file: String) throws -> ExerciseRule {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw RuleError(file: file, line: 0, reason: "cannot read the file")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw RuleError(file: file, line: 0, reason: "not UTF-8 text") }
        return try ExerciseRule(yaml: text, file: file)
    }

    /// The rule of an exercise, or an error listing the exercises there are.
    public func rule(for exercise: String) throws -> ExerciseRule {
        guard let rule = rules[exercise] else {
            throw UnknownExercise(name: exercise, directory: directory, known: rules.keys.sorted())
        }
        return rule
    }

    /// Reads only the rule of `exercise` from `directory` (`NAME.yaml`), so that
    /// one broken file does not stop the others' exercises.
    public static func rule(for exercise: String, in directory: String) throws -> ExerciseRule {
        let file = directory + "/" + exercise + ".yaml"
        guard ExerciseRule.isName(exercise), FileManager.default.fileExists(atPath: file) else {
            let known = (try? FileManager.default.contentsOfDirectory(atPath: directory))?
                .filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted() ?? []
            throw UnknownExercise(name: exercise, directory: directory, known: known)
        }
        let rule = try load(file: file)
        guard rule.exercise == exercise else {
            throw RuleError(file: file, line: 0, reason: "the file holds exercise \"\(rule.exercise)\", not \"\(exercise)\"")
        }
        return rule
    }
}
