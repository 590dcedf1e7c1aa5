import Foundation
import Postgres

/// Re-scoring stored sessions with a rule version: a `rescore` job per session
/// with a stored landmark track, which a worker scores without any model.
public enum Rescoring {
    /// What enqueueing found.
    public struct Enqueued: Sendable, Equatable {
        /// Sessions of the exercise (and filters) with a stored track.
        public var sessions: Int
        /// Jobs made now; the others were queued (or done) before with this version.
        public var queued: Int
    }

    /// Re-scoring jobs of `rulesVersion` by state.
    public struct Progress: Sendable, Equatable {
        public var waiting = 0
        public var succeeded = 0
        public var failed = 0
        public var total: Int { waiting + succeeded + failed }
    }

    /// Queues a re-scoring with `rulesVersion` (`squat@3`) of every session of
    /// `exercise` with a stored track — of one organization, or all; made since
    /// `since`, or ever. Idempotent: a session is queued once per version.
    public static func enqueue(
        exercise: String, rulesVersion: String, organizationID: UUID?, since: Date?, on connection: any PostgresClient
    ) async throws -> Enqueued {
        try await connection.transaction { session in
            let row = try session.query("""
                WITH candidates AS (
                    SELECT s.id, s.organization_id FROM sessions AS s JOIN landmark_tracks AS t ON t.session_id = s.id
                    WHERE s.exercise = $1 AND ($2::uuid IS NULL OR s.organization_id = $2) AND ($3::timestamptz IS NULL OR s.created_at >= $3)),
                queued AS (
                    INSERT INTO jobs (organization_id, session_id, kind, idempotency_key, rules_version, priority, max_attempts)
                    SELECT organization_id, id, 'rescore', \(JobQueue.storedKey("'rescore:' || id || ':' || $4")), $4, -1, 3 FROM candidates
                    ON CONFLICT (organization_id, idempotency_key) DO NOTHING
                    RETURNING id)
                SELECT (SELECT count(*) FROM candidates)::int AS sessions, (SELECT count(*) FROM queued)::int AS queued
                """, [exercise, organizationID, since, rulesVersion])[0]
            try session.query("SELECT pg_notify($1, '')", [JobQueue.channel])
            return Enqueued(sessions: try row.decode("sessions"), queued: try row.decode("queued"))
        }
    }

    /// How the re-scoring jobs of `rulesVersion` stand.
    public static func progress(rulesVersion: String, organizationID: UUID?, on connection: any PostgresClient) async throws -> Progress {
        let rows = try await connection.query("""
            SELECT state, count(*)::int AS count FROM jobs
            WHERE kind = 'rescore' AND rules_version = $1 AND ($2::uuid IS NULL OR organization_id = $2) GROUP BY state
            """, [rulesVersion, organizationID])
        var progress = Progress()
        for row in rows {
            let count: Int = try row.decode("count")
            switch JobState(rawValue: try row.decode("state")) {
            case .succeeded: progress.succeeded += count
            case .failed, .dead, .cancelled: progress.failed += count
            default: progress.waiting += count
            }
        }
        return progress
    }
}
