import ArgumentParser
import Contracts
import Foundation
import Rules
import Store

extension Spotter.RulesCommand {
    struct Publish: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Publish rules: each a new version that workers score with from then on.",
            discussion: """
                Each rule is checked first, then stored as its exercise's next version (numbered \
                after every stored version, or as its file says if that is higher; the text's \
                `version:` line set to it), with the author, the time and --message. Published \
                text never changes; publishing the current text again changes nothing. \
                Workers score an exercise with its newest published version, and with the rules \
                directory's file where none was published.
                """)

        @Argument(help: "Rule files, or exercises of the rules directory (default: every rule file there).")
        var rules: [String] = []

        @Option(help: "The changelog line: what changed and why.")
        var message: String?

        @Option(help: "Who publishes (default: $SPOTTER_AUTHOR, else $USER).")
        var author: String?

        @OptionGroup var location: RulesLocation
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let candidates: [ExerciseRule]
            do {
                candidates = try rules.isEmpty
                    ? try RuleBook(directory: try location.directory()).rules.values.sorted { $0.exercise < $1.exercise }
                    : rules.map { $0.contains("/") || $0.hasSuffix(".yaml") ? try RuleBook.load(file: $0) : try RuleBook.rule(for: $0, in: try location.directory()) }
            } catch {
                throw commandFailure(error)
            }
            let connection = try await database.connect()
            for rule in candidates {
                do {
                    switch try await RuleVersions.publish(rule, author: author ?? RulesAuthor.fromEnvironment, message: message, on: connection) {
                    case .published(let number): print("\(rule.exercise)@\(number): published (from \(rule.file))")
                    case .unchanged(let number): print("\(rule.exercise)@\(number): already the current text")
                    }
                } catch {
                    throw commandFailure(error)
                }
            }
        }
    }

    struct Versions: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List an exercise's stored rule versions, the current one marked.")

        @Argument(help: "The exercise.")
        var exercise: String

        @Flag(help: "Print JSON: an array of versions.")
        var json = false

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let connection = try await database.connect()
            let versions: [RuleVersions.Version]
            do { versions = try await RuleVersions.versions(exercise: exercise, on: connection) } catch { throw commandFailure(error) }
            guard !versions.isEmpty else { throw commandFailure(.badInput, "no stored rule versions of \"\(exercise)\"") }
            if json {
                let objects = versions.map { version -> [String: Any] in
                    ["version": version.number, "published": version.published, "current": version.current,
                     "author": version.author ?? NSNull(), "message": version.message ?? NSNull(),
                     "stored_at": ISO8601DateFormatter().string(from: version.storedAt), "sha256": version.sha256]
                }
                let data = try JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys])
                FileHandle.standardOutput.write(data + Data("\n".utf8))
                return
            }
            let rows = versions.map { version in
                [version.rulesVersion + (version.current ? " (current)" : ""), version.published ? "published" : "recorded by a worker",
                 ISO8601DateFormatter().string(from: version.storedAt), version.author ?? "", String(version.sha256.prefix(12)),
                 version.message ?? ""]
            }
            print(table([["version", "how", "stored", "author", "sha256", "message"]] + rows), terminator: "")
        }
    }

    struct Rollback: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make an earlier version's text current again, as a new version.",
            discussion: "History is kept: the text of VERSION is published again under the next number.")

        @Argument(help: "The exercise.")
        var exercise: String

        @Argument(help: "The version whose text becomes current (a number, or exercise@number).")
        var version: String

        @Option(help: "The changelog line (default: \"back to EXERCISE@VERSION\").")
        var message: String?

        @Option(help: "Who rolls back (default: $SPOTTER_AUTHOR, else $USER).")
        var author: String?

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            guard let number = ruleVersionNumber(version) else {
                throw commandFailure(.usage, "\"\(version)\" is not a version: give a number such as 2 (or \(exercise)@2)")
            }
            let connection = try await database.connect()
            do {
                switch try await RuleVersions.rollback(
                    exercise: exercise, to: number, author: author ?? RulesAuthor.fromEnvironment, message: message, on: connection) {
                case .published(let new): print("\(exercise)@\(new): published, the text of \(exercise)@\(number)")
                case .unchanged(let current): print("\(exercise)@\(current): already the text of \(exercise)@\(number)")
                }
            } catch {
                throw commandFailure(error)
            }
        }
    }
}

/// Who publishes, when not given.
enum RulesAuthor {
    static var fromEnvironment: String {
        let environment = ProcessInfo.processInfo.environment
        return [environment["SPOTTER_AUTHOR"], environment["USER"]].compactMap { $0 }.first { !$0.isEmpty } ?? "unknown"
    }
}
