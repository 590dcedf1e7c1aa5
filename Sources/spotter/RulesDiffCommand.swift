import ArgumentParser
import Contracts
import Foundation
import Logging
import Postgres
import Rules
import Store

extension Spotter.RulesCommand {
    struct Diff: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Score stored sessions with a candidate rule and with a stored version: what would change.",
            discussion: """
                Reads the landmark tracks stored with analysed sessions of the rule's exercise (newest \
                first, a page at a time; no model runs) and scores each with both rules. Prints every \
                session whose reps, time held, faults or warnings differ, then the totals.
                """)

        @Argument(help: "The candidate rule file.")
        var file: String

        @Option(help: "What to compare with: `published` (the current version) or a version number (or exercise@number).")
        var against: String

        @OptionGroup var sessions: StoredSessionOptions

        @Option(help: "At most this many sessions, the newest.")
        var limit: Int?

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var global: GlobalOptions

        func validate() throws {
            if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        }

        func run() async throws {
            let logger = global.bootstrapLogging()
            let candidate: ExerciseRule
            do { candidate = try RuleBook.load(file: file) } catch { throw commandFailure(error) }
            let connection = try await database.connect()
            let baseline = try await baselineRule(candidate.exercise, on: connection)
            let scoreBefore = Scorer(rule: baseline), scoreAfter = Scorer(rule: candidate)
            print("\(candidate.exercise): \(file) against \(baseline.rulesVersion)\(against == "published" ? " (published)" : "")")
            var total = DiffTotals(), cursor: StoredTrack?, lastProgress = ContinuousClock.now
            let started = ContinuousClock.now
            pages: while true {
                let page: [StoredTrack]
                do {
                    page = try await StoredTracks.page(
                        exercise: candidate.exercise, organizationID: sessions.organizationID,
                        since: sessions.sinceDate, after: cursor,
                        limit: min(100, (limit ?? .max) - total.sessions), on: connection)
                } catch {
                    throw commandFailure(error)
                }
                for stored in page {
                    let difference = ReportDifference(from: scoreBefore.score(stored.track).report, to: scoreAfter.score(stored.track).report)
                    total.add(difference)
                    if !difference.isEmpty {
                        let day = stored.createdAt.formatted(.iso8601.year().month().day().dateSeparator(.dash))
                        print("\(stored.sessionID.uuidString.lowercased())  \(day)  \(difference.summary)")
                    }
                }
                cursor = page.last
                if page.isEmpty || total.sessions >= (limit ?? .max) { break pages }
                if ContinuousClock.now - lastProgress > .seconds(2) {
                    lastProgress = .now
                    logger.info("scored \(total.sessions) session(s) with both rules")
                }
            }
            print(total.summary)
            let elapsed = (ContinuousClock.now - started).components
            logger.info("\(total.sessions) session(s) scored twice in \(String(format: "%.2f s", Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18))")
        }

        /// The stored version to compare with.
        private func baselineRule(_ exercise: String, on connection: PostgresConnection) async throws -> ExerciseRule {
            do {
                if against == "published" {
                    guard let current = try await RuleVersions.current(exercise: exercise, on: connection) else {
                        throw commandFailure(.badInput, "no version of \(exercise) was published; compare with a stored version (`spotter rules versions \(exercise)`)")
                    }
                    return current
                }
                guard let number = ruleVersionNumber(against) else {
                    throw commandFailure(.usage, "--against \(against): give `published` or a version number such as 2 (or \(exercise)@2)")
                }
                return try await RuleVersions.rule(exercise: exercise, version: number, on: connection)
            } catch let exit as ExitCode {
                throw exit
            } catch {
                throw commandFailure(error)
            }
        }
    }
}

/// What a diff found over all the sessions it scored.
struct DiffTotals {
    var sessions = 0
    var changed = 0
    var repsBefore = 0
    var repsAfter = 0
    var faultsAdded: [String: Int] = [:]
    var faultsRemoved: [String: Int] = [:]
    var warningsAdded = 0
    var warningsRemoved = 0

    mutating func add(_ difference: ReportDifference) {
        sessions += 1
        if !difference.isEmpty { changed += 1 }
        repsBefore += difference.repsBefore
        repsAfter += difference.repsAfter
        faultsAdded.merge(difference.faultsAdded, uniquingKeysWith: +)
        faultsRemoved.merge(difference.faultsRemoved, uniquingKeysWith: +)
        warningsAdded += difference.warningsAdded.count
        warningsRemoved += difference.warningsRemoved.count
    }

    var summary: String {
        let faults = faultsAdded.sorted { $0.key < $1.key }.map { "+\($0.key)×\($0.value)" }
            + faultsRemoved.sorted { $0.key < $1.key }.map { "−\($0.key)×\($0.value)" }
        return "total: \(sessions) session(s), \(changed) changed; reps \(repsBefore) → \(repsAfter); "
            + "faults \(faults.isEmpty ? "unchanged" : faults.joined(separator: " ")); warnings +\(warningsAdded) −\(warningsRemoved)"
    }
}
