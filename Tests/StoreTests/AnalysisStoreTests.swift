import Contracts
import Foundation
import Postgres
import Rules
@testable import Store
import SyntheticMotion
import Testing
import TestSupport

@Suite("Storing analyses")
struct AnalysisStoreTests {
    @Test("the report, reps, faults, track and outbox event are stored with the job's completion", .postgresDatabase)
    func complete() async throws {
        let (queue, organization) = try await StoreFixtures.queue()
        _ = try await queue.enqueue(StoreFixtures.request(organization, key: "squats"))
        let claimed = try #require(try await queue.claim(worker: "w"))
        let (track, rule) = try StoreFixtures.squats(reps: 4, seed: 3)
        let report = Scorer(rule: rule).score(track).report
        #expect(report.repCount == 4)

        let store = AnalysisStore(queue: queue)
        let analysisID = try await store.complete(claimed, report: report, track: track)
        #expect(try await queue.job(claimed.job.id, .allOrganizations)?.state == .succeeded)
        let connection = queue.connection
        #expect(try await StoreFixtures.count(connection, "SELECT count(*)::int AS count FROM reps WHERE analysis_id = $1", [analysisID]) == 4)
        #expect(try await StoreFixtures.count(connection, "SELECT count(*)::int AS count FROM faults WHERE analysis_id = $1", [analysisID]) == report.faults.count)
        let stored = try await connection.query(
            "SELECT rep_count, rules_version, report->>'format' AS format FROM analyses WHERE id = $1", [analysisID])[0]
        #expect(try stored.decode("rep_count", as: Int.self) == 4)
        #expect(try stored.decode("rules_version", as: String.self) == report.rulesVersion)
        #expect(try stored.decode("format", as: String.self) == "spotter.report/v1")
        #expect(try await store.track(sessionID: claimed.job.sessionID, .allOrganizations) == track)
        let event = try await connection.query(
            "SELECT event_type, payload->'summary'->>'rep_count' AS reps, payload->>'job_id' AS job FROM outbox_events")[0]
        #expect(try event.decode("event_type", as: String.self) == "analysis.completed")
        #expect(try event.decode("reps", as: String.self) == "4")
        #expect(try event.decode("job", as: String.self) == String(claimed.job.id))

        // What is stored reads back as what was written: the report and the event's payload.
        let documents = try await connection.query(
            "SELECT a.report::text AS report, e.payload::text AS payload FROM analyses a, outbox_events e WHERE a.id = $1", [analysisID])[0]
        #expect(try SessionReport.decode(Data(documents.decode("report", as: String.self).utf8)) == report)
        let payload = try JSONDecoder().decode(
            [String: OutboxEvent.PayloadValue].self, from: Data(documents.decode("payload", as: String.self).utf8))
        #expect(payload == OutboxEvent.analysisCompleted(job: claimed.job, analysisID: analysisID, report: report).payload)
        let session = try await connection.query("SELECT status FROM session_statuses WHERE id = $1", [claimed.job.sessionID])[0]
        #expect(try session.decode("status", as: String.self) == "analysed")
    }

    @Test("another organization's job, track, pictures or session answers exactly like an unknown one", .postgresDatabase)
    func tenantScope() async throws {
        let (queue, organization) = try await StoreFixtures.queue()
        let other = try await Organization.create(name: "Another gym", on: queue.connection)
        let (job, _) = try await queue.enqueue(StoreFixtures.request(organization, key: "mine"))
        let claimed = try #require(try await queue.claim(worker: "w"))
        let (track, rule) = try StoreFixtures.squats(reps: 2, seed: 5)
        let store = AnalysisStore(queue: queue)
        let pictures = [Data([0xff, 0xd8, 1]), Data([0xff, 0xd8, 2])]
        _ = try await store.complete(claimed, report: Scorer(rule: rule).score(track).report, track: track, thumbnails: pictures)

        #expect(try await store.thumbnails(sessionID: job.sessionID, .organization(organization.id)) == [1: pictures[0], 2: pictures[1]])
        #expect(try await store.thumbnails(sessionID: job.sessionID, .organization(other.id)).isEmpty)

        #expect(try await queue.job(job.id, .organization(organization.id))?.id == job.id)
        #expect(try await queue.job(job.id, .organization(other.id)) == nil)
        #expect(try await queue.list(.organization(other.id)).isEmpty)
        #expect(try await queue.list(.organization(organization.id)).map(\.id) == [job.id])
        #expect(try await store.track(sessionID: job.sessionID, .organization(organization.id)) == track)
        #expect(try await store.track(sessionID: job.sessionID, .organization(other.id)) == nil)
        let foreign = try await #require(throws: JobQueueError.self) { try await queue.retry(job.id, .organization(other.id)) }
        let unknown = try await #require(throws: JobQueueError.self) { try await queue.retry(999_999, .organization(other.id)) }
        #expect(foreign.code == .notFound && unknown.code == .notFound)
        #expect(foreign.message == "there is no job \(job.id)" && unknown.message == "there is no job 999999")
        #expect(try await queue.job(job.id, .allOrganizations)?.state == .succeeded, "nothing changed")
    }

    @Test("a session's view follows its job: queued, running, succeeded with its count, failed with the safe reason", .postgresDatabase)
    func sessionViews() async throws {
        let (queue, organization) = try await StoreFixtures.queue()
        let store = AnalysisStore(queue: queue)
        let (done, _) = try await queue.enqueue(StoreFixtures.request(organization, key: "done"))
        let queued = try #require(try await store.sessionView(sessionID: done.sessionID, .organization(organization.id)))
        #expect(queued == SessionView(id: done.sessionID, status: .queued, exercise: "squat"))
        let claimed = try #require(try await queue.claim(worker: "w"))
        #expect(try await store.sessionView(sessionID: done.sessionID, .organization(organization.id))?.status == .running)
        let (track, rule) = try StoreFixtures.squats(reps: 3, seed: 6)
        _ = try await store.complete(claimed, report: Scorer(rule: rule).score(track).report, track: track)
        let succeeded = try #require(try await store.sessionView(sessionID: done.sessionID, .organization(organization.id)))
        #expect(succeeded.status == .succeeded && succeeded.repCount == 3 && succeeded.error == nil)
        #expect(succeeded.reportURL == "/v1/sessions/\(done.sessionID.uuidString.lowercased())/report")

        let (bad, _) = try await queue.enqueue(StoreFixtures.request(organization, key: "bad"))
        let badClaim = try #require(try await queue.claim(worker: "w"))
        _ = try await queue.fail(badClaim.lease, .permanent, reason: "bad.mp4: not a video")
        let failed = try #require(try await store.sessionView(sessionID: bad.sessionID, .organization(organization.id)))
        #expect(failed.status == .failed && failed.error == "bad.mp4: not a video" && failed.repCount == nil && failed.reportURL == nil)

        let (dropped, _) = try await queue.enqueue(StoreFixtures.request(organization, key: "dropped"))
        _ = try await queue.cancel(dropped.id, .organization(organization.id))
        #expect(try await store.sessionView(sessionID: dropped.sessionID, .organization(organization.id))?.error == "cancelled")
        #expect(try await store.sessionView(sessionID: done.sessionID, .organization(UUID())) == nil)

        let json = String(decoding: try JSONEncoder().encode(succeeded), as: UTF8.self)
        #expect(json.contains("\"rep_count\":3") && json.contains("\"report_url\"") && json.contains("\"status\":\"succeeded\""))
    }

    @Test("a track timed from the Unix epoch is stored whole; a value the database refuses fails for good", .postgresDatabase)
    func epochTimes() async throws {
        let (queue, organization) = try await StoreFixtures.queue()
        _ = try await queue.enqueue(StoreFixtures.request(organization, key: "epoch"))
        let claimed = try #require(try await queue.claim(worker: "w"))
        let squats = try StoreFixtures.squats(reps: 2, seed: 7)
        var track = squats.track
        for index in track.frames.indices { track.frames[index].timestampMilliseconds += 1_795_000_000_000 }
        let report = Scorer(rule: squats.rule).score(track).report
        let analysisID = try await AnalysisStore(queue: queue).complete(claimed, report: report, track: track)
        let first = try await queue.connection.query(
            "SELECT min(start_ms) AS start FROM reps WHERE analysis_id = $1", [analysisID])[0].decode("start", as: Int64.self)
        #expect(first > 1_795_000_000_000 && report.repCount == 2)

        let outOfRange = try await #require(throws: PostgresError.self) { try await queue.connection.query("SELECT 2147483648::int4") }
        #expect(outOfRange.sqlState == "22003" && describeFailure(outOfRange).kind == .badInput, "permanent, not retried")
    }

    @Test("a worker that lost its lease stores nothing", .postgresDatabase)
    func lostLease() async throws {
        let (queue, organization) = try await StoreFixtures.queue(leaseDuration: .milliseconds(100))
        _ = try await queue.enqueue(StoreFixtures.request(organization, key: "late"))
        let claimed = try #require(try await queue.claim(worker: "w"))
        try await Task.sleep(for: .milliseconds(250))
        try await queue.reapExpiredLeases()
        let (track, rule) = try StoreFixtures.squats(reps: 2, seed: 4)
        await #expect(throws: JobQueueError.self) {
            try await AnalysisStore(queue: queue).complete(claimed, report: Scorer(rule: rule).score(track).report, track: track)
        }
        for table in ["analyses", "reps", "faults", "landmark_tracks", "outbox_events"] {
            #expect(try await StoreFixtures.count(queue.connection, "SELECT count(*)::int AS count FROM \(table)") == 0, "\(table)")
        }
    }
}

@Suite("Stored tracks, a page at a time")
struct StoredTracksTests {
    @Test("analysed sessions' tracks newest first, a page at a time, of one organization or since a time", .postgresDatabase)
    func pages() async throws {
        let (queue, organization) = try await StoreFixtures.queue()
        let other = try await Organization.create(name: "Another gym", on: queue.connection)
        var made: [UUID] = []
        for (index, owner) in [organization, organization, other].enumerated() {
            _ = try await queue.enqueue(StoreFixtures.request(owner, key: "set-\(index)"))
            let claimed = try #require(try await queue.claim(worker: "w"))
            let (track, rule) = try StoreFixtures.squats(reps: index + 2, seed: UInt64(index))
            try await AnalysisStore(queue: queue).complete(claimed, report: Scorer(rule: rule).score(track).report, track: track)
            _ = try await queue.connection.query(
                "UPDATE sessions SET created_at = now() - make_interval(days => $2) WHERE id = $1", [claimed.job.sessionID, 10 - index])
            made.append(claimed.job.sessionID)
        }
        let first = try await StoredTracks.page(exercise: "squat", organizationID: nil, since: nil, after: nil, limit: 2, on: queue.connection)
        #expect(first.map(\.sessionID) == [made[2], made[1]], "newest first")
        let second = try await StoredTracks.page(exercise: "squat", organizationID: nil, since: nil, after: first.last, limit: 2, on: queue.connection)
        #expect(second.map(\.sessionID) == [made[0]])
        #expect(second[0].track == (try StoreFixtures.squats(reps: 2, seed: 0)).track)
        let mine = try await StoredTracks.page(exercise: "squat", organizationID: organization.id, since: nil, after: nil, limit: 10, on: queue.connection)
        #expect(mine.map(\.sessionID) == [made[1], made[0]])
        let recent = try await StoredTracks.page(
            exercise: "squat", organizationID: nil, since: Date().addingTimeInterval(-9.5 * 86_400), after: nil, limit: 10, on: queue.connection)
        #expect(recent.map(\.sessionID) == [made[2], made[1]])
        #expect(try await StoredTracks.page(exercise: "pushup", organizationID: nil, since: nil, after: nil, limit: 10, on: queue.connection).isEmpty)
    }
}
