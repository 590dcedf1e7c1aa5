import Foundation
import Postgres

extension JobQueue {
    /// Leases the next ready job to `worker` — of the organization with the fewest
    /// jobs running, then the most urgent — or returns nil when none is ready.
    /// The job is locked (`SKIP LOCKED`, so workers never wait on each other) and
    /// written back as its lifecycle's `.claimed` leaves a queued job, with its
    /// lease (the session's status follows; see `session_statuses`).
    ///
    /// One statement in the common case: the most urgent ready job, taken when it
    /// is the fair one (`claimingHead`). Only when that takes nothing (the head is
    /// not the fair one, or no job is ready) does a second statement walk the
    /// organizations (`claimingFairest`).
    public func claim(worker: String) async throws -> ClaimedJob? {
        var lifecycle = JobLifecycle(state: .queued, attempts: 0, maxAttempts: 1, leaseExpirations: 0, cancelRequested: false)
        _ = try lifecycle.apply(.claimed, retryPolicy: retryPolicy)
        let parameters: [any PostgresEncodable] = [lifecycle.state.rawValue, lifecycle.cancelRequested, worker, leaseDuration.milliseconds]
        // Both prepared on the connection: planning them took longer than running them.
        let rows = try await connection.withSession { session in
            let head = try session.preparedQuery(Self.claimingHead, parameters)
            return head.isEmpty ? try session.preparedQuery(Self.claimingFairest, parameters) : head
        }
        guard let row = rows.first else { return nil }
        let job = try Job(row: row)
        return ClaimedJob(
            job: job, lease: Lease(jobID: job.id, id: try row.decode("lease_id"), expiresAt: try row.decode("lease_expires_at")),
            exercise: try row.decode("exercise"), sourceURI: try row.decode("source_uri"),
            madeBy: RequestOrigin(rawValue: try row.decode("made_by")) ?? .client)
    }

    // Fair across organizations: the ready job of the organization with the fewest
    // jobs running comes first, so that one tenant's flood cannot starve the others;
    // within an organization, priority, then age. The most urgent ready job is locked
    // first (`head`): it is the fair one when its organization is the only one waiting
    // (two descents of an index, tried first) or has none running (none has fewer).

    /// The most urgent ready job, locked, and kept only when it is the fair one.
    private static let fairHead = """
        head AS (
            SELECT j.id, j.organization_id FROM jobs AS j WHERE j.state = 'queued' AND j.run_at <= now()
            ORDER BY j.priority DESC, j.run_at, j.id
            LIMIT 1
            FOR UPDATE SKIP LOCKED),
        fair_head AS (
            SELECT head.id FROM head
            WHERE ((SELECT o.organization_id FROM jobs AS o WHERE o.state = 'queued' AND o.organization_id < head.organization_id
                    ORDER BY o.organization_id DESC LIMIT 1) IS NULL
                   AND (SELECT o.organization_id FROM jobs AS o WHERE o.state = 'queued' AND o.organization_id > head.organization_id
                    ORDER BY o.organization_id LIMIT 1) IS NULL)
               OR NOT EXISTS (SELECT 1 FROM jobs AS r WHERE r.organization_id = head.organization_id AND r.state = 'running'))
        """

    /// Leases the job `next` names, returning the job with its lease and what the worker reads of its session.
    private static let leasingNext = """
        UPDATE jobs AS j SET
            state = $1, cancel_requested = $2, lease_id = gen_random_uuid(), leased_by = $3, heartbeat_at = now(),
            lease_expires_at = now() + $4 * interval '1 millisecond', updated_at = now()
        FROM next, sessions AS s WHERE j.id = next.id AND s.id = j.session_id
        RETURNING \(Job.columns), j.lease_id, j.lease_expires_at, s.exercise, s.source_uri, s.made_by
        """

    /// The common case: the most urgent ready job when it is the fair one; no row otherwise.
    static let claimingHead = """
        WITH \(fairHead),
        next AS (SELECT id FROM fair_head)
        \(leasingNext)
        """

    /// When the head was not the fair one: each organization with a queued job found
    /// through the index one step at a time (a loose index scan), its most urgent ready
    /// job locked, and the fewest-running organization's taken — by definition the fair one.
    static let claimingFairest = """
        WITH RECURSIVE running AS (
            SELECT organization_id, count(*) AS jobs FROM jobs WHERE state = 'running' GROUP BY organization_id),
        organizations(id) AS (
            (SELECT organization_id FROM jobs WHERE state = 'queued' ORDER BY organization_id LIMIT 1)
            UNION ALL
            SELECT (SELECT j.organization_id FROM jobs AS j WHERE j.state = 'queued' AND j.organization_id > o.id
                    ORDER BY j.organization_id LIMIT 1)
            FROM organizations AS o WHERE o.id IS NOT NULL),
        walked AS (
            SELECT best.id FROM organizations AS o
            CROSS JOIN LATERAL (
                SELECT j.id, j.priority, j.run_at FROM jobs AS j
                WHERE j.organization_id = o.id AND j.state = 'queued' AND j.run_at <= now()
                ORDER BY j.priority DESC, j.run_at, j.id
                LIMIT 1
                FOR UPDATE SKIP LOCKED) AS best
            LEFT JOIN running AS r ON r.organization_id = o.id
            WHERE o.id IS NOT NULL
            ORDER BY coalesce(r.jobs, 0), best.priority DESC, best.run_at, best.id
            LIMIT 1),
        next AS (SELECT id FROM walked)
        \(leasingNext)
        """
}
