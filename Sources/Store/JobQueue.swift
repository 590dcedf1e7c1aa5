import Foundation
import Postgres

/// The job queue in PostgreSQL, shared by any number of workers on any number of hosts.
///
/// Workers claim with `FOR UPDATE SKIP LOCKED` and hold an explicit lease,
/// extended by heartbeats; finishing a job is fenced by the lease id, so a
/// worker that lost its lease can neither complete nor overwrite the job. Jobs
/// whose lease ran out go back to the queue without spending an attempt.
public struct JobQueue: Sendable {
    /// The channel `NOTIFY` wakes workers on when a job becomes ready.
    public static let channel = "spotter_jobs"
    /// The channel `NOTIFY` asks a running job's worker to stop it on; the payload is the job's id.
    public static let cancelChannel = "spotter_job_cancel"

    /// One connection (a worker) or a pool (an API server's concurrent requests).
    public let connection: any PostgresClient
    /// How long a lease lasts without a heartbeat.
    public var leaseDuration: Duration
    public var retryPolicy: RetryPolicy

    public init(connection: any PostgresClient, leaseDuration: Duration = .seconds(30), retryPolicy: RetryPolicy = RetryPolicy()) {
        self.connection = connection
        self.leaseDuration = leaseDuration
        self.retryPolicy = retryPolicy
    }

    /// Makes the session and its job, or returns the job an earlier request with
    /// the same idempotency key made (`created` false). The key is kept with the
    /// session, beyond the job's retention: a repeat after the job was deleted is
    /// refused (`JobQueueError.Code.alreadyAnalysed`, naming the session), never a second analysis.
    public func enqueue(_ request: AnalysisRequest) async throws -> (job: Job, created: Bool) {
        do {
            return try await insert(request)
        } catch let error as PostgresError where error.isUniqueViolation {
            // Another request with the same key won the race; its job is the one.
            return try await insert(request)
        }
    }

    private func insert(_ request: AnalysisRequest) async throws -> (job: Job, created: Bool) {
        var allowed = request
        if request.origin == .client {
            if case .local = JobSource(uri: request.sourceURI) { throw SourceNotAllowed(source: request.sourceURI) }
            // A client's job waits its turn like everyone's: its priority and attempts are the operator's defaults.
            allowed.priority = 0
            allowed.maxAttempts = min(request.maxAttempts, AnalysisRequest.defaultMaxAttempts)
        }
        let request = allowed
        return try await connection.transaction { session in
            // The session and its job in one statement: one snapshot, so that a request
            // committed meanwhile is seen whole or not at all.
            if let earlier = try session.query("""
                SELECT s.id AS earlier_session, \(Job.columns) FROM sessions AS s LEFT JOIN jobs AS j ON j.session_id = s.id
                WHERE s.organization_id = $1 AND s.idempotency_key = \(Self.storedKey("$2"))
                ORDER BY j.id DESC LIMIT 1
                """, [request.organizationID, request.idempotencyKey]).first {
                if try earlier.decode("id", as: Int64?.self) != nil { return (try Job(row: earlier), false) }
                let id = try earlier.decode("earlier_session", as: UUID.self)
                throw JobQueueError(
                    code: .alreadyAnalysed, jobID: 0,
                    message: "this upload was made before as session \(id.uuidString.lowercased()); its job is no longer kept")
            }
            let sessionRow = try session.query("""
                INSERT INTO sessions (organization_id, athlete_id, exercise, source_kind, source_uri, made_by, idempotency_key)
                VALUES ($1, $2, $3, $4, $5, $6, \(Self.storedKey("$7"))) RETURNING id
                """,
                [request.organizationID, request.athleteID, request.exercise,
                 request.kind == .analyzeVideo ? "video" : "track", request.sourceURI, request.origin.rawValue,
                 request.idempotencyKey])
            let sessionID: UUID = try sessionRow[0].decode("id")
            let rows = try session.query("""
                INSERT INTO jobs AS j (organization_id, session_id, kind, idempotency_key, priority, run_at, max_attempts)
                VALUES ($1, $2, $3, \(Self.storedKey("$4")), $5, COALESCE($6, now()), $7)
                RETURNING \(Job.columns)
                """,
                [request.organizationID, sessionID, request.kind.rawValue, request.idempotencyKey, request.priority,
                 request.runAt, request.maxAttempts])
            try session.query("SELECT pg_notify($1, '')", [Self.channel])
            return (try Job(row: rows[0]), true)
        }
    }

    /// What a heartbeat found.
    public enum HeartbeatOutcome: Sendable, Equatable {
        /// The lease was extended; `cancelRequested` says whether someone asked the job to stop.
        case held(Lease, cancelRequested: Bool)
        /// The lease is gone: the worker must stop the job and not finish it.
        case lost
    }

    /// Extends the lease by `leaseDuration` from now.
    public func heartbeat(_ lease: Lease) async throws -> HeartbeatOutcome {
        let rows = try await connection.preparedQuery("""
            UPDATE jobs SET heartbeat_at = now(), lease_expires_at = now() + $3 * interval '1 millisecond'
            WHERE id = $1 AND lease_id = $2 AND state = 'running'
            RETURNING lease_expires_at, cancel_requested
            """, [lease.jobID, lease.id, leaseDuration.milliseconds])
        guard let row = rows.first else { return .lost }
        var extended = lease
        extended.expiresAt = try row.decode("lease_expires_at")
        return .held(extended, cancelRequested: try row.decode("cancel_requested"))
    }

    /// Marks the job succeeded inside the caller's transaction, so that it commits
    /// together with the job's results; throws `leaseLost` (and the caller's
    /// transaction rolls back) when the lease is no longer the caller's.
    public func complete(_ lease: Lease, in session: PostgresSession) throws {
        let (sql, parameters) = try succeeding(lease)
        if try session.preparedQuery(sql, parameters).affectedRows == 1 { return }
        // Otherwise the full transition says why (the lease lost, the job gone or not running).
        try transition(lease.jobID, lease: lease, .succeeded, reason: nil, session)
    }

    /// Marks the job succeeded on its own, in one round trip: for a job whose
    /// results, if any, are already stored.
    public func complete(_ lease: Lease) async throws {
        let (sql, parameters) = try succeeding(lease)
        if try await connection.preparedQuery(sql, parameters).affectedRows == 1 { return }
        try await connection.transaction { [self] session in try transition(lease.jobID, lease: lease, .succeeded, reason: nil, session) }
    }

    /// The common case of a completion as one statement: the lease still the
    /// caller's and the job running, written as its lifecycle's `.succeeded`
    /// leaves a running job (the session's status follows; see
    /// `session_statuses`); one row affected when it was.
    private func succeeding(_ lease: Lease) throws -> (String, [any PostgresEncodable]) {
        var lifecycle = JobLifecycle(state: .running, attempts: 0, maxAttempts: 1, leaseExpirations: 0, cancelRequested: false)
        _ = try lifecycle.apply(.succeeded, retryPolicy: retryPolicy)
        return ("""
            UPDATE jobs SET state = $3, lease_id = NULL, lease_expires_at = NULL, leased_by = NULL,
                finished_at = now(), updated_at = now()
            WHERE id = $1 AND lease_id = $2 AND state = 'running'
            """, [lease.jobID, lease.id, lifecycle.state.rawValue])
    }

    /// Records a failed run: retried later with backoff, failed at once, or dead
    /// after the last attempt. Returns the job's new state.
    @discardableResult
    public func fail(_ lease: Lease, _ kind: JobFailureKind, reason: String) async throws -> JobState {
        let jitter = Double.random(in: -1...1)
        return try await connection.transaction { [self] session in
            try transition(lease.jobID, lease: lease, .failed(kind, jitter: jitter), reason: reason, session).state
        }
    }

    /// Gives a running job back: queued again without spending an attempt, or
    /// cancelled when that was asked for.
    public func release(_ lease: Lease) async throws {
        try await connection.transaction { [self] session in
            _ = try transition(lease.jobID, lease: lease, .released, reason: nil, session)
        }
    }

    /// Marks a running job cancelled after its worker stopped it on request.
    public func stoppedForCancellation(_ lease: Lease) async throws {
        try await connection.transaction { [self] session in
            _ = try transition(lease.jobID, lease: lease, .stoppedForCancellation, reason: "cancelled", session)
        }
    }

    /// Requeues (or buries) running jobs whose lease ran out; returns their ids.
    @discardableResult
    public func reapExpiredLeases() async throws -> [Int64] {
        try await connection.transaction { [self] session in
            let rows = try session.query("""
                SELECT id FROM jobs WHERE state = 'running' AND lease_expires_at < now()
                ORDER BY id FOR UPDATE SKIP LOCKED
                """)
            let ids = try rows.map { try $0.decode("id", as: Int64.self) }
            for id in ids {
                try transition(id, lease: nil, .leaseExpired, reason: "the worker stopped heartbeating", session)
            }
            return ids
        }
    }

    /// Reads the job's row, applies `event` through the job's lifecycle and
    /// writes the outcome, with the session's status to match.
    @discardableResult
    func transition(
        _ jobID: Int64, _ scope: TenantScope = .allOrganizations, lease: Lease?, _ event: JobLifecycle.Event, reason: String?,
        _ session: PostgresSession
    ) throws -> JobLifecycle {
        let rows = try session.query("""
            SELECT \(Job.columns), j.lease_id FROM jobs AS j
            WHERE j.id = $1 AND ($2::uuid IS NULL OR j.organization_id = $2) FOR UPDATE
            """, [jobID, scope.organizationID])
        guard let row = rows.first else {
            throw JobQueueError(code: .notFound, jobID: jobID, message: "there is no job \(jobID)")
        }
        let job = try Job(row: row)
        if let lease, try row.decode("lease_id", as: UUID?.self) != lease.id {
            throw JobQueueError(
                code: .leaseLost, jobID: jobID, message: "the lease on job \(jobID) is no longer this worker's")
        }
        var lifecycle = job.lifecycle
        let effect: JobLifecycle.Effect
        do {
            effect = try lifecycle.apply(event, retryPolicy: retryPolicy)
        } catch let error as JobLifecycle.InvalidTransition {
            throw JobQueueError(code: .invalidState, jobID: jobID, message: "job \(jobID) is \(job.state.rawValue); \(error)")
        }
        var runAgainMilliseconds: Int64?
        switch effect {
        case .none: break
        case .runAgain(let delay): runAgainMilliseconds = delay.milliseconds
        case .askWorkerToStop: try session.query("SELECT pg_notify($1, $2)", [Self.cancelChannel, String(jobID)])
        }
        // The session's status follows from the job's (`session_statuses`); a re-scoring
        // job's leaves its session as it was.
        try session.query("""
            UPDATE jobs SET
                state = $2, attempts = $3, lease_expirations = $4, cancel_requested = $5,
                run_at = CASE WHEN $6::bigint IS NULL THEN run_at ELSE now() + $6 * interval '1 millisecond' END,
                last_error = COALESCE($7, last_error),
                lease_id = CASE WHEN $2 = 'running' THEN lease_id END,
                lease_expires_at = CASE WHEN $2 = 'running' THEN lease_expires_at END,
                leased_by = CASE WHEN $2 = 'running' THEN leased_by END,
                finished_at = CASE WHEN $8 THEN now() END,
                updated_at = now()
            WHERE id = $1
            """,
            [jobID, lifecycle.state.rawValue, lifecycle.attempts, lifecycle.leaseExpirations, lifecycle.cancelRequested,
             runAgainMilliseconds, reason, lifecycle.state.isFinished])
        if lifecycle.state == .failed || lifecycle.state == .dead, job.kind != .rescore {
            try OutboxEvent.analysisFailed(job: job, state: lifecycle.state, reason: reason ?? "failed").insert(session)
        }
        if lifecycle.state == .queued { try session.query("SELECT pg_notify($1, '')", [Self.channel]) }
        return lifecycle
    }

    /// An idempotency key as stored: its SHA-256, so that a key made from a URL
    /// never keeps the URL's token in the database or in `jobs show`.
    static func storedKey(_ parameter: String) -> String {
        "encode(sha256(convert_to(\(parameter), 'UTF8')), 'hex')"
    }
}

extension Duration {
    /// The duration in whole milliseconds.
    var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
