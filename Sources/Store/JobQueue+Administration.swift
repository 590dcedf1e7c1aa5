import Foundation
import Postgres

extension JobQueue {
    /// Jobs within `scope`, newest first, optionally of one state.
    public func list(_ scope: TenantScope, state: JobState? = nil, limit: Int = 50) async throws -> [Job] {
        try await connection.query("""
            SELECT \(Job.columns) FROM jobs AS j
            WHERE ($1::text IS NULL OR j.state = $1) AND ($2::uuid IS NULL OR j.organization_id = $2)
            ORDER BY j.id DESC LIMIT $3
            """, [state?.rawValue, scope.organizationID, limit]
        ).map(Job.init(row:))
    }

    /// One job, or nil when there is none with that id within `scope`.
    public func job(_ id: Int64, _ scope: TenantScope) async throws -> Job? {
        try await connection.withSession { try Self.job(id, scope, $0) }
    }

    static func job(_ id: Int64, _ scope: TenantScope, _ session: PostgresSession) throws -> Job? {
        try session.query(
            "SELECT \(Job.columns) FROM jobs AS j WHERE j.id = $1 AND ($2::uuid IS NULL OR j.organization_id = $2)",
            [id, scope.organizationID]
        ).first.map(Job.init(row:))
    }

    /// Cancels a queued job at once; asks a running job's worker to stop it (its
    /// next heartbeat learns of it). Returns the job afterwards.
    public func cancel(_ id: Int64, _ scope: TenantScope) async throws -> Job {
        try await administer(id, scope, .cancelRequested, reason: "cancelled")
    }

    /// Queues a failed, dead or cancelled job again with fresh attempts.
    public func retry(_ id: Int64, _ scope: TenantScope) async throws -> Job {
        try await administer(id, scope, .retryRequested, reason: nil)
    }

    /// Applies `event` to the job and returns it afterwards, in one transaction.
    private func administer(
        _ id: Int64, _ scope: TenantScope, _ event: JobLifecycle.Event, reason: String?
    ) async throws -> Job {
        try await connection.transaction { [self] session in
            try transition(id, scope, lease: nil, event, reason: reason, session)
            guard let job = try Self.job(id, scope, session) else {
                throw JobQueueError(code: .notFound, jobID: id, message: "there is no job \(id)")
            }
            return job
        }
    }

    /// Deletes finished jobs older than `retention`, `batchSize` rows per
    /// statement so that no long lock is held; returns how many went. Their
    /// sessions and analyses stay, each session keeping the status its job
    /// gave it (copied from `session_statuses` in the same statement).
    @discardableResult
    public func deleteFinished(olderThan retention: Duration, batchSize: Int = 1000) async throws -> Int {
        var deleted = 0
        while true {
            let rows = try await connection.query("""
                WITH gone AS (
                    DELETE FROM jobs WHERE id IN (
                        SELECT id FROM jobs
                        WHERE finished_at < now() - $1 * interval '1 millisecond'
                        ORDER BY finished_at LIMIT $2
                        FOR UPDATE SKIP LOCKED)
                    RETURNING session_id, kind),
                kept AS (
                    UPDATE sessions SET status = v.status, failure_reason = v.failure_reason
                    FROM gone JOIN session_statuses AS v ON v.id = gone.session_id
                    WHERE sessions.id = gone.session_id AND gone.kind <> 'rescore')
                SELECT count(*)::int AS deleted FROM gone
                """, [retention.milliseconds, batchSize])
            let count = try rows[0].decode("deleted", as: Int.self)
            deleted += count
            if count < batchSize { return deleted }
        }
    }
}
