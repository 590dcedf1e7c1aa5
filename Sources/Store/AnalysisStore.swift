import Contracts
import Foundation
import LandmarkTracks
import Postgres
import Rules

/// Writes a finished job's results: the report, its reps and faults as rows, the
/// packed landmark track and the `analysis.completed` outbox event, together with
/// the job's completion, in one transaction. A worker that lost its lease writes
/// nothing. The new analysis is the session's current one; a re-score's sits
/// beside the old ones (its track is already stored, and reps turning at the
/// same moment keep their pictures).
public struct AnalysisStore: Sendable {
    public let queue: JobQueue

    public init(queue: JobQueue) {
        self.queue = queue
    }

    /// Stores the results of `claimed` and completes its job; returns the
    /// analysis id. `thumbnails` are JPEG pictures of the reps' turns, in rep
    /// order (none, or one for each rep).
    @discardableResult
    public func complete(
        _ claimed: ClaimedJob, report: SessionReport, track: LandmarkTrack, thumbnails: [Data] = []
    ) async throws -> UUID {
        // A re-score reads the stored track: there is no new one to pack and keep.
        let rescore = claimed.job.kind == .rescore
        let packed = rescore ? nil : LandmarkTrackPacking.pack(track)
        return try await queue.connection.transaction { [queue] session in
            let job = claimed.job
            try queue.complete(claimed.lease, in: session)
            let reportJSON = String(decoding: report.jsonData(pretty: false), as: UTF8.self)
            let previous = try session.query(
                "UPDATE analyses SET current = false WHERE session_id = $1 AND current RETURNING id", [job.sessionID]
            ).first?.decode("id", as: UUID.self)
            let analysisID: UUID = try session.query("""
                INSERT INTO analyses (organization_id, session_id, job_id, exercise, rules_version, rep_count, hold_ms, report, current, rescore)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, true, $9) RETURNING id
                """,
                [job.organizationID, job.sessionID, job.id, report.exercise, report.rulesVersion, report.repCount,
                 report.holdMilliseconds, reportJSON, rescore])[0].decode("id")
            for rep in report.reps {
                try session.query("""
                    INSERT INTO reps (analysis_id, index, start_ms, bottom_ms, end_ms, metrics, organization_id)
                    VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7)
                    """,
                    [analysisID, rep.index, rep.startMilliseconds, rep.bottomMilliseconds, rep.endMilliseconds,
                     try Self.json(rep.metrics), job.organizationID])
            }
            for (rep, picture) in zip(report.reps, thumbnails) {
                try session.query(
                    "INSERT INTO rep_thumbnails (analysis_id, rep_index, organization_id, jpeg) VALUES ($1, $2, $3, $4)",
                    [analysisID, rep.index, job.organizationID, [UInt8](picture)])
            }
            for fault in report.faults {
                try session.query("""
                    INSERT INTO faults (analysis_id, rep_index, code, severity, start_ms, end_ms, message, organization_id)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                    """,
                    [analysisID, fault.rep, fault.code, fault.severity, fault.startMilliseconds, fault.endMilliseconds,
                     fault.message, job.organizationID])
            }
            if rescore, let previous {
                // The same video: a rep that turns at the same moment keeps its picture.
                try session.query("""
                    INSERT INTO rep_thumbnails (analysis_id, rep_index, organization_id, jpeg)
                    SELECT $1, new.index, t.organization_id, t.jpeg FROM rep_thumbnails AS t
                    JOIN reps AS old ON old.analysis_id = t.analysis_id AND old.index = t.rep_index
                    JOIN reps AS new ON new.analysis_id = $1 AND new.bottom_ms = old.bottom_ms
                    WHERE t.analysis_id = $2
                    ON CONFLICT DO NOTHING
                    """, [analysisID, previous])
            }
            try OutboxEvent.analysisCompleted(job: job, analysisID: analysisID, report: report).insert(session)
            guard let packed else { return analysisID }
            try session.query("""
                INSERT INTO landmark_tracks (session_id, packing, frame_count, data, organization_id) VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT (session_id) DO UPDATE
                SET packing = EXCLUDED.packing, frame_count = EXCLUDED.frame_count, data = EXCLUDED.data, created_at = now()
                """, [job.sessionID, LandmarkTrackPacking.name, track.frames.count, packed, job.organizationID])
            try session.query(
                "UPDATE sessions SET duration_ms = $2, updated_at = now() WHERE id = $1",
                [job.sessionID, report.source.durationMilliseconds])
            return analysisID
        }
    }

    /// The packed landmark track stored for a session within `scope`, unpacked;
    /// nil when there is none (or the session is another organization's).
    public func track(sessionID: UUID, _ scope: TenantScope) async throws -> LandmarkTrack? {
        let rows = try await queue.connection.query("""
            SELECT t.data FROM landmark_tracks AS t JOIN sessions AS s ON s.id = t.session_id
            WHERE t.session_id = $1 AND ($2::uuid IS NULL OR s.organization_id = $2)
            """, [sessionID, scope.organizationID])
        guard let row = rows.first else { return nil }
        return try LandmarkTrackPacking.unpack(try row.decode("data"), name: "the stored track of session \(sessionID)")
    }

    /// The pictures of the reps' turns in a session's latest analysis within
    /// `scope`, JPEG, by rep number; empty when there are none.
    public func thumbnails(sessionID: UUID, _ scope: TenantScope) async throws -> [Int: Data] {
        let rows = try await queue.connection.query("""
            SELECT t.rep_index, t.jpeg FROM rep_thumbnails AS t
            WHERE t.analysis_id = (
                SELECT a.id FROM analyses AS a WHERE a.session_id = $1 AND ($2::uuid IS NULL OR a.organization_id = $2)
                ORDER BY a.created_at DESC LIMIT 1)
            """, [sessionID, scope.organizationID])
        return try Dictionary(uniqueKeysWithValues: rows.map { (try $0.decode("rep_index", as: Int.self), Data(try $0.decode("jpeg", as: [UInt8].self))) })
    }

    /// A session as clients see it (`SessionView`), within `scope`; nil when
    /// there is none (another organization's answers the same).
    public func sessionView(sessionID: UUID, _ scope: TenantScope) async throws -> SessionView? {
        let rows = try await queue.connection.query("""
            SELECT v.status, s.exercise, v.failure_reason,
                   (SELECT a.rep_count FROM analyses AS a WHERE a.session_id = s.id ORDER BY a.created_at DESC LIMIT 1) AS rep_count
            FROM sessions AS s JOIN session_statuses AS v ON v.id = s.id
            WHERE s.id = $1 AND ($2::uuid IS NULL OR s.organization_id = $2)
            """, [sessionID, scope.organizationID])
        guard let row = rows.first else { return nil }
        let stored = try row.decode("status", as: String.self)
        let status: SessionView.Status = switch stored {
        case "pending": .queued
        case "analysing": .running
        case "analysed": .succeeded
        default: .failed
        }
        return SessionView(
            id: sessionID, status: status, exercise: try row.decode("exercise"),
            error: stored == "cancelled" ? "cancelled" : try row.decode("failure_reason", as: String?.self),
            repCount: try row.decode("rep_count", as: Int?.self))
    }

    /// A session's latest report (`spotter.report/v1`) as stored, within
    /// `scope`; nil until it exists (or when the session is another organization's).
    public func reportJSON(sessionID: UUID, _ scope: TenantScope) async throws -> String? {
        try await queue.connection.query("""
            SELECT report::text AS report FROM analyses
            WHERE session_id = $1 AND ($2::uuid IS NULL OR organization_id = $2)
            ORDER BY created_at DESC LIMIT 1
            """, [sessionID, scope.organizationID]).first?.decode("report")
    }

    /// A session's latest analysis from the database alone, as a report page
    /// needs it: the stored report, and the stored track scored again with the
    /// stored rule text the report names — the same report, with the key signal
    /// and held spans a page plots. Nil when the session has no analysis within
    /// `scope` (another organization's answers the same).
    public func storedAnalysis(sessionID: UUID, _ scope: TenantScope) async throws -> StoredAnalysis? {
        guard let stored = try await reportJSON(sessionID: sessionID, scope), let track = try await track(sessionID: sessionID, scope) else {
            return nil
        }
        let report = try SessionReport.decode(Data(stored.utf8))
        let named = report.rulesVersion.split(separator: "@")
        guard named.count == 2, let version = Int(named[1]),
              let text = try await RuleVersions.text(exercise: String(named[0]), version: version, on: queue.connection)
        else {
            throw RuleError(file: "rule_versions", line: 0, reason: "no stored text for \(report.rulesVersion), which session \(sessionID) was scored with")
        }
        let rule = try ExerciseRule(yaml: text, file: "rule_versions \(report.rulesVersion)")
        var analysis = Scorer(rule: rule).score(track)
        analysis.report = report
        return StoredAnalysis(analysis: analysis, rule: rule)
    }

    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// An analysis served from the database: the stored report with what its page plots, and the rule it was scored with.
public struct StoredAnalysis: Sendable {
    public var analysis: Analysis
    public var rule: ExerciseRule
}
