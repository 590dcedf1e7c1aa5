import ArgumentParser
import Contracts
import Foundation
import Postgres
import Rules
import Store

extension Spotter.RulesCommand {
    struct Rescore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Score stored sessions again with a rule version, without the models: a new analysis beside the old.",
            discussion: """
                Queues a re-scoring job for each analysed session of the exercise with a stored landmark \
                track; workers score the track with the version (--version, else the current published \
                one, else the rules directory's file), store the new analysis as the session's current one \
                beside the old, and send analysis.completed events marked "rescore": true. Running it again \
                queues nothing twice. With --wait it shows progress until the jobs are done.
                """)

        @Argument(help: "The exercise.")
        var exercise: String

        @Option(help: "The rule version to score with: a number (or exercise@number).")
        var version: String?

        @OptionGroup var sessions: StoredSessionOptions

        @Flag(help: "Follow the jobs until every one is done (needs a running `spotter worker`).")
        var wait = false

        @OptionGroup var location: RulesLocation
        @OptionGroup var database: DatabaseOptions

        func validate() throws {
            if let version, ruleVersionNumber(version) == nil {
                throw ValidationError("--version \(version): give a version number such as 2 (or \(exercise)@2)")
            }
        }

        func run() async throws {
            let connection = try await database.connect()
            let organizationID = sessions.organizationID
            let rule: ExerciseRule
            let enqueued: Rescoring.Enqueued
            do {
                rule = try await ruleVersion(on: connection)
                enqueued = try await Rescoring.enqueue(
                    exercise: exercise, rulesVersion: rule.rulesVersion, organizationID: organizationID,
                    since: sessions.sinceDate, on: connection)
            } catch {
                throw commandFailure(error)
            }
            print("\(rule.rulesVersion): \(enqueued.sessions) session(s) with a stored track; \(enqueued.queued) re-scoring job(s) queued, "
                + "\(enqueued.sessions - enqueued.queued) queued or done before")
            guard wait else { return }
            var last: Rescoring.Progress?
            while true {
                let progress: Rescoring.Progress
                do {
                    progress = try await Rescoring.progress(rulesVersion: rule.rulesVersion, organizationID: organizationID, on: connection)
                } catch {
                    throw commandFailure(error)
                }
                if progress != last {
                    FileHandle.standardError.write(Data("re-scored \(progress.succeeded) of \(progress.total)\(progress.failed > 0 ? ", \(progress.failed) failed" : "")\n".utf8))
                    last = progress
                }
                if progress.waiting == 0 { break }
                try await Task.sleep(for: .milliseconds(500))
            }
            print("\(rule.rulesVersion): \(last?.succeeded ?? 0) session(s) re-scored, \(last?.failed ?? 0) failed (`spotter jobs list --state failed` and `--state dead` say why)")
        }

        /// The version asked for; else the current published one; else the rules directory's file, recorded as its own version.
        private func ruleVersion(on connection: PostgresConnection) async throws -> ExerciseRule {
            if let version, let number = ruleVersionNumber(version) {
                return try await RuleVersions.rule(exercise: exercise, version: number, on: connection)
            }
            if let published = try await RuleVersions.current(exercise: exercise, on: connection) { return published }
            let file = try RuleBook.rule(for: exercise, in: try location.directory())
            try await RuleVersions.record(file, on: connection)
            return file
        }
    }
}
