import Foundation
import LandmarkTracks
import SyntheticMotion
import TestSupport
import Testing

/// `spotter migrate`, `spotter jobs`, `spotter rules publish` and `spotter worker`,
/// run as an operator runs them, against a real database.
@Suite("spotter migrate, jobs, rules publish and worker")
struct BackendCommandTests {
    let directory: URL
    /// The environment naming this test's database.
    var database: [String: String] { ["SPOTTER_DATABASE_URL": PostgresDatabase.url] }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-backend-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func spotter(_ arguments: [String], environment: [String: String]? = nil) async throws -> SubprocessOutcome {
        try await SpotterProcess.run(arguments, environment: environment ?? database)
    }

    func text(_ outcome: SubprocessOutcome) -> String { String(decoding: outcome.standardOutput, as: UTF8.self) }

    /// A squat track file with `reps` reps.
    func track(reps: Int) throws -> String {
        var conditions = SetConditions()
        conditions.reps = reps
        let track = SyntheticSessions.make("squat", conditions, seed: 11).track
        let path = directory.appendingPathComponent("squat-\(reps).jsonl").path
        try LandmarkTrackWriter.jsonLines(of: track).write(to: URL(fileURLWithPath: path))
        return path
    }

    func jobState(_ id: String) async throws -> String? {
        let outcome = try await spotter(["jobs", "show", id, "--json"])
        let job = try JSONSerialization.jsonObject(with: outcome.standardOutput) as? [String: Any]
        return job?["state"] as? String
    }

    @Test("migrate brings the database up to date once; jobs are enqueued once, listed, shown, cancelled and retried", .postgresDatabase)
    func migrateAndJobs() async throws {
        let first = try await spotter(["migrate"])
        #expect(first.status == 0 && first.standardError.contains("applied 0001_initial_schema.sql"), "\(first.standardError)")
        let second = try await spotter(["migrate"])
        #expect(second.status == 0 && second.standardError.contains("already up to date"))

        let track = try track(reps: 3)
        let enqueued = try await spotter(["jobs", "enqueue", track, "--exercise", "squat", "--landmarks"])
        #expect(enqueued.status == 0, "\(enqueued.standardError)")
        let id = text(enqueued).trimmingCharacters(in: .whitespacesAndNewlines)
        let again = try await spotter(["jobs", "enqueue", track, "--exercise", "squat", "--landmarks"])
        #expect(text(again).trimmingCharacters(in: .whitespacesAndNewlines) == id)
        #expect(again.standardError.contains("already exists"))

        let list = try await spotter(["jobs", "list", "--json"])
        let jobs = try #require(try JSONSerialization.jsonObject(with: list.standardOutput) as? [[String: Any]])
        #expect(jobs.count == 1 && jobs.first?["kind"] as? String == "score_track")
        #expect(try await jobState(id) == "queued")
        #expect(try await spotter(["jobs", "cancel", id]).status == 0)
        #expect(try await jobState(id) == "cancelled")
        #expect(try await spotter(["jobs", "retry", id]).status == 0)
        #expect(try await jobState(id) == "queued")
        let refused = try await spotter(["jobs", "retry", id])
        #expect(refused.status == 64 && refused.errorLines.first?.contains("only failed, dead or cancelled") == true)
        let missing = try await spotter(["jobs", "show", "999999"])
        #expect(missing.status == 64 && missing.errorLines == ["spotter: error: there is no job 999999"])
        let later = try await spotter(["jobs", "enqueue", track, "--exercise", "squat", "--landmarks", "--idempotency-key", "later",
                                 "--run-at", "2030-01-02T03:04:05Z", "--priority", "7"])
        let laterJob = try await JSONSerialization.jsonObject(
            with: try spotter(["jobs", "show", text(later).trimmingCharacters(in: .whitespacesAndNewlines), "--json"]).standardOutput
        ) as? [String: Any]
        #expect(laterJob?["run_at"] as? String == "2030-01-02T03:04:05Z" && laterJob?["priority"] as? Int == 7)
        let badTime = try await spotter(["jobs", "enqueue", track, "--exercise", "squat", "--run-at", "tomorrow"])
        #expect(badTime.status == 64)
        let noFile = try await spotter(["jobs", "enqueue", directory.appendingPathComponent("nope.mp4").path, "--exercise", "squat"])
        #expect(noFile.status == 65 && noFile.errorLines.first?.contains("nope.mp4") == true)
    }

    @Test("rules publish, versions and rollback: each change a new version with its author and message, history kept", .postgresDatabase)
    func publishRules() async throws {
        let v = SpotterProcess.shippedVersion(of: "squat")
        #expect(try await spotter(["migrate"]).status == 0)
        var environment = database
        environment["SPOTTER_AUTHOR"] = "head-coach"
        let published = try await spotter(["rules", "publish", "--message", "as shipped"], environment: environment)
        #expect(published.status == 0, "\(published.standardError)")
        #expect(text(published).split(separator: "\n").count == 8 && text(published).contains("squat@\(v): published"), "\(text(published))")
        let again = try await spotter(["rules", "publish", "squat"])
        #expect(text(again) == "squat@\(v): already the current text\n")

        let rules = directory.appendingPathComponent("Rules")
        try FileManager.default.createDirectory(at: rules, withIntermediateDirectories: true)
        let original = try String(contentsOf: SpotterProcess.repository.appendingPathComponent("Rules/squat.yaml"), encoding: .utf8)
        let edited = rules.appendingPathComponent("squat.yaml")
        try (original + "\n# a changed comment\n").write(to: edited, atomically: true, encoding: .utf8)
        let changed = try await spotter(["rules", "publish", edited.path, "--message", "a comment", "--author", "ana"])
        #expect(changed.status == 0 && text(changed).hasPrefix("squat@\(v + 1): published"), "\(changed.standardError)")

        let back = try await spotter(["rules", "rollback", "squat", "squat@\(v)"], environment: environment)
        #expect(back.status == 0 && text(back) == "squat@\(v + 2): published, the text of squat@\(v)\n", "\(back.standardError)")
        let listed = try await spotter(["rules", "versions", "squat", "--json"])
        let versions = try #require(try JSONSerialization.jsonObject(with: listed.standardOutput) as? [[String: Any]])
        #expect(versions.map { $0["version"] as? Int } == [v, v + 1, v + 2])
        #expect(versions.map { $0["current"] as? Bool } == [false, false, true])
        #expect(versions.map { $0["author"] as? String } == ["head-coach", "ana", "head-coach"])
        #expect(versions.map { $0["message"] as? String } == ["as shipped", "a comment", "back to squat@\(v)"])
        let table = try await spotter(["rules", "versions", "squat"])
        #expect(text(table).contains("squat@\(v + 2) (current)"))

        let unknown = try await spotter(["rules", "rollback", "squat", "\(v + 3)"])
        #expect(unknown.status == 65 && unknown.errorLines.first?.contains("no stored version squat@\(v + 3)") == true)
        let notANumber = try await spotter(["rules", "rollback", "squat", "latest"])
        #expect(notANumber.status == 64)
        let none = try await spotter(["rules", "versions", "yoga"])
        #expect(none.status == 65)
    }

    @Test("without a database, or with one that is down, the backend commands say so", .postgresDatabase)
    func noDatabase() async throws {
        let none = try await spotter(["jobs", "list"], environment: ["SPOTTER_DATABASE_URL": ""])
        #expect(none.status == 64 && none.errorLines.first?.contains("SPOTTER_DATABASE_URL") == true)
        let down = try await spotter(["migrate", "--database-url", "postgresql://spotter:s3cret@/spotter?host=/nonexistent&connect_timeout=2"])
        #expect(down.status == 69 && down.errorLines.first?.contains("could not connect") == true)
        #expect(!down.standardError.contains("s3cret"))
    }

    @Test("rules diff scores the stored tracks with a candidate and a stored version and prints what would change", .postgresDatabase)
    func diffRules() async throws {
        let v = SpotterProcess.shippedVersion(of: "squat")
        #expect(try await spotter(["migrate"]).status == 0)
        var ids: [String] = []
        for reps in [4, 5, 6] {
            await ids.append(text(try spotter(["jobs", "enqueue", try track(reps: reps), "--exercise", "squat", "--landmarks"]))
                .trimmingCharacters(in: .whitespacesAndNewlines))
        }
        _ = try await runWorker(until: ids)
        #expect(try await spotter(["rules", "publish", "squat"]).status == 0)
        let original = try String(contentsOf: SpotterProcess.repository.appendingPathComponent("Rules/squat.yaml"), encoding: .utf8)
        let same = directory.appendingPathComponent("same.yaml"), strict = directory.appendingPathComponent("strict.yaml")
        try original.write(to: same, atomically: true, encoding: .utf8)
        // Reps must now move 170° each way: none of the 15 does.
        try original.replacingOccurrences(of: "min_range: 35", with: "min_range: 170").write(to: strict, atomically: true, encoding: .utf8)

        let unchanged = try await spotter(["rules", "diff", same.path, "--against", "published"])
        #expect(unchanged.status == 0 && text(unchanged).hasSuffix("total: 3 session(s), 0 changed; reps 15 → 15; faults unchanged; warnings +0 −0\n"),
                "\(text(unchanged)) \(unchanged.standardError)")
        let changed = try await spotter(["rules", "diff", strict.path, "--against", "squat@\(v)"])
        let lines = text(changed).split(separator: "\n")
        #expect(changed.status == 0 && lines.first == "squat: \(strict.path) against squat@\(v)", "\(text(changed)) \(changed.standardError)")
        #expect(lines.filter { $0.contains("reps ") && $0.contains(" → 0") }.count == 4, "three sessions and the total: \(lines)")
        #expect(lines.last?.hasPrefix("total: 3 session(s), 3 changed; reps 15 → 0;") == true)
        let newest = try await spotter(["rules", "diff", strict.path, "--against", "published", "--limit", "2"])
        #expect(text(newest).contains("total: 2 session(s), 2 changed; reps 11 → 0;"), "the newest two: 6 and 5 reps: \(text(newest))")
        let elsewhere = try await spotter(["rules", "diff", strict.path, "--against", "published", "--organization", UUID().uuidString])
        #expect(text(elsewhere).contains("total: 0 session(s)"))
        let unknown = try await spotter(["rules", "diff", strict.path, "--against", "\(v + 3)"])
        #expect(unknown.status == 65 && unknown.errorLines.first?.contains("no stored version squat@\(v + 3)") == true)
    }

    @Test("rules rescore queues each stored session once per version and, with --wait, follows a worker until it is done", .postgresDatabase)
    func rescoreRules() async throws {
        let v = SpotterProcess.shippedVersion(of: "squat")
        #expect(try await spotter(["migrate"]).status == 0)
        var ids: [String] = []
        for reps in [4, 5] {
            await ids.append(text(try spotter(["jobs", "enqueue", try track(reps: reps), "--exercise", "squat", "--landmarks"]))
                .trimmingCharacters(in: .whitespacesAndNewlines))
        }
        _ = try await runWorker(until: ids)
        let original = try String(contentsOf: SpotterProcess.repository.appendingPathComponent("Rules/squat.yaml"), encoding: .utf8)
        let strict = directory.appendingPathComponent("strict.yaml")
        try original.replacingOccurrences(of: "min_range: 35", with: "min_range: 170").write(to: strict, atomically: true, encoding: .utf8)
        #expect(try await spotter(["rules", "publish", strict.path]).status == 0)

        let queued = try await spotter(["rules", "rescore", "squat"])
        // The worker recorded the file as squat@v, so the published candidate is squat@(v + 1).
        #expect(text(queued) == "squat@\(v + 1): 2 session(s) with a stored track; 2 re-scoring job(s) queued, 0 queued or done before\n",
                "\(text(queued)) \(queued.standardError)")
        let again = try await spotter(["rules", "rescore", "squat", "--version", "squat@\(v + 1)"])
        #expect(text(again).hasSuffix("0 re-scoring job(s) queued, 2 queued or done before\n"))
        let missing = try await spotter(["rules", "rescore", "squat", "--version", "\(v + 2)"])
        #expect(missing.status == 65 && missing.errorLines.first?.contains("no stored version squat@\(v + 2)") == true)

        let jobs = try await JSONSerialization.jsonObject(with: try spotter(["jobs", "list", "--json"]).standardOutput) as? [[String: Any]] ?? []
        let rescoring = jobs.filter { $0["kind"] as? String == "rescore" }.compactMap { ($0["id"] as? Int).map(String.init) }
        #expect(rescoring.count == 2)
        let waiting = Task { try await spotter(["rules", "rescore", "squat", "--wait"]) }
        _ = try await runWorker(until: rescoring)
        let followed = try await waiting.value
        #expect(followed.status == 0 && text(followed).hasSuffix("squat@\(v + 1): 2 session(s) re-scored, 0 failed (`spotter jobs list --state failed` and `--state dead` say why)\n"),
                "\(text(followed)) \(followed.standardError)")
        #expect(followed.standardError.contains("re-scored 2 of 2"))
        let shown = text(try await spotter(["jobs", "show", rescoring[0]]))
        #expect(shown.contains("rules version:   squat@\(v + 1)") && shown.contains("state:           succeeded"), "\(shown)")
    }

    /// Runs `spotter worker` until the jobs `ids` succeeded (or two minutes
    /// passed), then stops it with SIGTERM; its log.
    func runWorker(until ids: [String]) async throws -> (Process, String) {
        let worker = Process()
        worker.executableURL = SpotterProcess.executable
        worker.arguments = ["worker", "--concurrency", "2", "--work-dir", directory.appendingPathComponent("work").path]
        worker.environment = ProcessInfo.processInfo.environment.merging(database) { $1 }
        let errors = directory.appendingPathComponent("worker.log")
        try Data().write(to: errors)
        worker.standardError = try FileHandle(forWritingTo: errors)
        try worker.run()
        let deadline = ContinuousClock.now + .seconds(120)
        for id in ids {
            while try await jobState(id) != "succeeded", ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(200))
            }
            #expect(try await jobState(id) == "succeeded")
        }
        worker.terminate()
        worker.waitUntilExit()
        return (worker, try String(contentsOf: errors, encoding: .utf8))
    }

    @Test("spotter worker runs queued jobs and exits cleanly on SIGTERM", .postgresDatabase)
    func workerProcess() async throws {
        #expect(try await spotter(["migrate"]).status == 0)
        let id = text(try await spotter(["jobs", "enqueue", try track(reps: 4), "--exercise", "squat", "--landmarks"]))
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let (worker, log) = try await runWorker(until: [id])
        #expect(worker.terminationReason == .exit && worker.terminationStatus == 0, "\(log)")
        #expect(log.contains("stopped"), "\(log)")
    }
}
