import Foundation
import Postgres
import Rules
import Store
import Testing
import TestSupport
import Worker

/// `spotter rules rescore`'s jobs: a session's stored track scored again with a
/// stored rule version by a worker that could not run a model if it tried.
@Suite("Re-scoring stored sessions", .timeLimit(.minutes(5)))
struct RescoreTests {
    @Test("a re-score needs no engine: a new current analysis beside the old, pictures kept, the event marked, queued once", .postgresDatabase)
    func rescore() async throws {
        var fixture = try await WorkerFixture()
        let first = try await fixture.enqueue(try fixture.squatTrack(reps: 3))
        _ = try await withWorker(fixture.configuration) { try await fixture.wait(for: [first.id]) }
        let connection = fixture.queue.connection
        let file = try RuleBook.rule(for: "squat", in: fixture.configuration.rulesDirectory)
        // The same movement under another title: the same reps, turning at the same moments.
        let strict = try ExerciseRule(yaml: file.text.replacingOccurrences(of: "title: Back squat", with: "title: Strict squat"), file: "strict.yaml")
        let first3 = try await connection.query("SELECT id FROM analyses WHERE session_id = $1", [first.sessionID])[0].decode("id", as: UUID.self)
        for index in 1...3 {
            _ = try await connection.query(
                "INSERT INTO rep_thumbnails (analysis_id, rep_index, organization_id, jpeg) VALUES ($1, $2, $3, $4)",
                [first3, index, fixture.organization.id, [UInt8]([0xff, 0xd8, UInt8(index)])])
        }
        guard case .published(let number) = try await RuleVersions.publish(strict, author: "ana", message: nil, on: connection) else {
            Issue.record("not published")
            return
        }
        let enqueued = try await Rescoring.enqueue(exercise: "squat", rulesVersion: "squat@\(number)", organizationID: nil, since: nil, on: connection)
        #expect(enqueued.sessions == 1 && enqueued.queued == 1)
        let again = try await Rescoring.enqueue(exercise: "squat", rulesVersion: "squat@\(number)", organizationID: nil, since: nil, on: connection)
        #expect(again.sessions == 1 && again.queued == 0, "queued once per version")
        let unknown = try await Rescoring.enqueue(exercise: "squat", rulesVersion: "squat@99", organizationID: nil, since: nil, on: connection)
        #expect(unknown.queued == 1)

        // No engine, no child process: the `spotter` this worker would run is not there.
        fixture.configuration.executable = "/nonexistent/spotter"
        let jobs = try await connection.query("SELECT id, rules_version FROM jobs WHERE kind = 'rescore' ORDER BY id")
        let ids = try jobs.map { try $0.decode("id", as: Int64.self) }
        let finished = try await withWorker(fixture.configuration) { try await fixture.wait(for: ids) }
        #expect(finished.map(\.state) == [.succeeded, .failed], "\(finished.map { $0.lastError ?? "" })")
        #expect(finished[1].lastError?.contains("no stored version squat@99") == true)

        let analyses = try await connection.query(
            "SELECT rep_count, rules_version, current, rescore FROM analyses WHERE session_id = $1 ORDER BY created_at", [first.sessionID])
        #expect(try analyses.map { try $0.decode("rep_count", as: Int.self) } == [3, 3])
        #expect(try analyses.map { try $0.decode("rules_version", as: String.self) } == ["squat@\(file.version)", "squat@\(number)"])
        #expect(try analyses.map { try $0.decode("current", as: Bool.self) } == [false, true])
        #expect(try analyses.map { try $0.decode("rescore", as: Bool.self) } == [false, true])
        let view = try #require(try await AnalysisStore(queue: fixture.queue).sessionView(sessionID: first.sessionID, .allOrganizations))
        #expect(view.status == .succeeded && view.repCount == 3, "the failed re-score left the session be")
        let stored = try #require(try await AnalysisStore(queue: fixture.queue).storedAnalysis(sessionID: first.sessionID, .allOrganizations))
        #expect(stored.rule.title == "Strict squat", "the page reads the current analysis")
        let pictures = try await AnalysisStore(queue: fixture.queue).thumbnails(sessionID: first.sessionID, .allOrganizations)
        #expect(pictures == [1: Data([0xff, 0xd8, 1]), 2: Data([0xff, 0xd8, 2]), 3: Data([0xff, 0xd8, 3])], "the reps kept their pictures")
        let events = try await connection.query(
            "SELECT payload->>'rescore' AS rescore FROM outbox_events WHERE event_type = 'analysis.completed' ORDER BY created_at")
        #expect(try events.map { try $0.decode("rescore", as: String.self) } == ["false", "true"])
        #expect(try await fixture.count("SELECT count(*)::int AS count FROM outbox_events WHERE event_type = 'analysis.failed'") == 0)
    }
}
