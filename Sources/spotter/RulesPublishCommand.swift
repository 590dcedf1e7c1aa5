import ArgumentParser
import Contracts
import Foundation
import Rules
import Store

extension Spotter.RulesCommand {
    struct Publish: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record exercise rules in the database as published versions.",
            discussion: """
                Each file is checked first; a version is published once and never changes: \
                publishing the same text again is a no-op, other text under a published version \
                is refused (raise `version:` in the file).
                """)

        @Argument(help: "The exercises to publish (default: every rule file of the rules directory).")
        var exercises: [String] = []

        @OptionGroup var rules: RulesLocation
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let directory = try rules.directory()
            let ruleList: [ExerciseRule]
            do {
                ruleList = exercises.isEmpty
                    ? try RuleBook(directory: directory).rules.values.sorted { $0.exercise < $1.exercise }
                    : try exercises.map { try RuleBook.rule(for: $0, in: directory) }
            } catch {
                throw commandFailure(error)
            }
            let connection = try await database.connect()
            for rule in ruleList {
                do {
                    guard let data = FileManager.default.contents(atPath: rule.file) else {
                        throw RuleError(file: rule.file, line: 0, reason: "cannot read the file")
                    }
                    let outcome = try await RuleVersions.publish(
                        exercise: rule.exercise, version: rule.version, body: String(decoding: data, as: UTF8.self), on: connection)
                    print("\(rule.rulesVersion): \(outcome == .published ? "published" : "already published")")
                } catch let conflict as RuleVersions.Conflict {
                    throw commandFailure(.badInput, "\(rule.file): \(conflict)")
                } catch {
                    throw commandFailure(error)
                }
            }
        }
    }
}
