import Foundation
import Postgres
import Store

/// One delivery claimed for an attempt: what to send where, under a lease.
public struct ClaimedDelivery: Sendable {
    public var id: Int64
    public var leaseID: UUID
    public var organizationID: UUID
    public var endpointID: UUID
    public var url: String
    /// The stable `webhook-id`: the event's id, the same on every retry and replay.
    public var webhookID: String
    public var eventType: String
    /// The event's payload as stored (JSON text).
    public var payload: String
    public var eventTime: Date
    public var athleteID: UUID?
    public var exercise: String?
    /// This attempt's number, from 1 (numbering goes on across replays).
    public var attempt: Int
    /// Its number since the last replay, from 1: where the retry schedule is.
    public var attemptSinceReplay: Int
    /// Since when the endpoint has failed without a success, if it has.
    public var failingSince: Date?
}

/// The outbox fanned out into deliveries, one per (event, endpoint), which
/// any number of dispatchers claim with `SKIP LOCKED` and a lease, as workers
/// claim jobs: a dispatcher killed mid-delivery loses nothing, its lease runs
/// out and another takes the delivery (same `webhook-id`).
public struct DeliveryQueue: Sendable {
    public let database: any PostgresClient
    /// How long a claim holds a delivery: longer than one attempt may take.
    public var lease: Duration = .seconds(60)

    /// The channel an event's insertion notifies (`OutboxEvent`), and the one new deliveries notify.
    public static let outboxChannel = "spotter_outbox"
    public static let deliveriesChannel = "spotter_webhook_deliveries"

    public init(database: any PostgresClient) {
        self.database = database
    }

    /// Turns up to `limit` undispatched events into one delivery for every
    /// enabled endpoint of their organization subscribed to their type; the number of deliveries made.
    @discardableResult
    public func fanOut(limit: Int = 500) async throws -> Int {
        let rows = try await database.query(
            """
            WITH events AS (
                SELECT id, organization_id, event_type FROM outbox_events
                WHERE dispatched_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED
            ), made AS (
                INSERT INTO webhook_deliveries (organization_id, event_id, endpoint_id)
                SELECT e.organization_id, e.id, w.id FROM events e
                JOIN webhook_endpoints w ON w.organization_id = e.organization_id AND w.enabled AND e.event_type = ANY (w.event_types)
                ON CONFLICT (event_id, endpoint_id) DO NOTHING
                RETURNING id
            ), marked AS (
                UPDATE outbox_events SET dispatched_at = now() WHERE id IN (SELECT id FROM events) RETURNING id
            )
            SELECT (SELECT count(*) FROM made)::int AS made, (SELECT count(*) FROM marked)::int AS marked
            """, [limit])
        let made: Int = try rows[0].decode("made")
        if made > 0 { _ = try await database.query("SELECT pg_notify($1, '')", [Self.deliveriesChannel]) }
        return made
    }

    /// Claims up to `limit` deliveries that are due (or whose lease ran out),
    /// at most `perEndpoint` leased at once to one endpoint, so that a slow
    /// receiver cannot take every slot. Each claim counts as an attempt.
    public func claim(limit: Int, perEndpoint: Int) async throws -> [ClaimedDelivery] {
        let leaseID = UUID()
        let rows = try await database.preparedQuery(
            """
            WITH locked AS (
                SELECT d.id, d.endpoint_id, d.next_attempt_at FROM webhook_deliveries d
                WHERE (d.state = 'pending' AND d.next_attempt_at <= now()) OR (d.state = 'delivering' AND d.lease_expires_at < now())
                ORDER BY d.next_attempt_at, d.id LIMIT $2 * 4 FOR UPDATE SKIP LOCKED
            ), ranked AS (
                SELECT l.id, row_number() OVER (PARTITION BY l.endpoint_id ORDER BY l.next_attempt_at, l.id) AS rank,
                       (SELECT count(*) FROM webhook_deliveries x
                        WHERE x.endpoint_id = l.endpoint_id AND x.state = 'delivering' AND x.lease_expires_at >= now()) AS busy
                FROM locked l
            ), chosen AS (
                SELECT id FROM ranked WHERE rank + busy <= $3 ORDER BY rank, id LIMIT $2
            )
            UPDATE webhook_deliveries d
            SET state = 'delivering', lease_id = $1, lease_expires_at = now() + make_interval(secs => $4), attempts = d.attempts + 1
            FROM chosen, outbox_events e, webhook_endpoints w
            WHERE d.id = chosen.id AND e.id = d.event_id AND w.id = d.endpoint_id AND w.enabled
            RETURNING d.id, d.organization_id, d.endpoint_id, d.attempts, d.attempts - d.attempts_before_replay AS since_replay, e.event_id, e.event_type, e.payload::text AS payload,
                      e.created_at, w.url, w.failing_since,
                      (SELECT s.athlete_id FROM sessions s
                       WHERE s.id = (e.payload->>'session_id')::uuid AND s.organization_id = d.organization_id) AS athlete_id,
                      (SELECT s.exercise FROM sessions s
                       WHERE s.id = (e.payload->>'session_id')::uuid AND s.organization_id = d.organization_id) AS exercise
            """, [leaseID, limit, perEndpoint, Self.seconds(lease)])
        return try rows.map { row in
            ClaimedDelivery(
                id: try row.decode("id"), leaseID: leaseID, organizationID: try row.decode("organization_id"),
                endpointID: try row.decode("endpoint_id"), url: try row.decode("url"), webhookID: try row.decode("event_id"),
                eventType: try row.decode("event_type"), payload: try row.decode("payload"), eventTime: try row.decode("created_at"),
                athleteID: try row.decode("athlete_id", as: UUID?.self), exercise: try row.decode("exercise", as: String?.self),
                attempt: try row.decode("attempts"), attemptSinceReplay: try row.decode("since_replay"), failingSince: try row.decode("failing_since", as: Date?.self))
        }
    }

    /// One finished attempt: what the receiver answered (or why nothing was),
    /// how long it took and what comes next. Written only while the lease
    /// holds: a dispatcher whose lease ran out records nothing (another has the delivery).
    public struct AttemptRecord: Sendable {
        public var status: Int?
        public var error: String?
        public var latencyMilliseconds: Int
        /// The start of the response body, for the endpoint's owner.
        public var responseExcerpt: String?
        public var decision: DeliveryPolicy.Decision
    }

    /// Records an attempt and applies its decision to the delivery and its endpoint, in one transaction.
    /// Returns false when the lease had been lost (nothing written).
    @discardableResult
    public func record(_ delivery: ClaimedDelivery, _ attempt: AttemptRecord) async throws -> Bool {
        let (state, next, finished, lastError): (String, Date?, Bool, String?)
        var disable: String?
        switch attempt.decision {
        case .delivered: (state, next, finished, lastError) = ("delivered", nil, true, nil)
        case .retry(let at, let reason): (state, next, finished, lastError) = ("pending", at, false, reason)
        case .dead(let reason): (state, next, finished, lastError) = ("dead", nil, true, reason)
        case .disableEndpoint(let reason):
            (state, next, finished, lastError) = ("dead", nil, true, "endpoint disabled: \(reason)")
            disable = reason
        }
        let disabling = disable
        let outcome = attempt.decision == .delivered ? "delivered" : (attempt.status == nil ? "refused" : "failed")
        let delivered = attempt.decision == .delivered
        // One statement: the delivery (only while the lease holds), its attempt and the endpoint's failing time.
        let recorded = """
            WITH updated AS (
                UPDATE webhook_deliveries
                SET state = $3, next_attempt_at = coalesce($4, next_attempt_at), finished_at = CASE WHEN $5 THEN now() END,
                    last_error = $6, lease_id = NULL, lease_expires_at = NULL
                WHERE id = $1 AND lease_id = $2 AND state = 'delivering'
                RETURNING event_id, endpoint_id
            ), attempt AS (
                INSERT INTO delivery_attempts
                    (event_id, endpoint_id, attempt, outcome, status_code, error, delivery_id, latency_ms, response_excerpt)
                SELECT event_id, endpoint_id, $7, $8, $9, $10, $1, $11, $12 FROM updated
                ON CONFLICT (event_id, endpoint_id, attempt) DO NOTHING
            ), endpoint AS (
                UPDATE webhook_endpoints SET failing_since = CASE WHEN $13 THEN NULL ELSE now() END
                WHERE id = (SELECT endpoint_id FROM updated) AND (failing_since IS NULL) <> $13  -- only when it changes
            )
            SELECT count(*)::int AS updated FROM updated
            """
        let parameters: [any PostgresEncodable] = [
            delivery.id, delivery.leaseID, state, next, finished, lastError, delivery.attempt, outcome, attempt.status, attempt.error,
            attempt.latencyMilliseconds, attempt.responseExcerpt, delivered,
        ]
        guard let disable = disabling else {
            return try await database.preparedQuery(recorded, parameters)[0].decode("updated", as: Int.self) == 1
        }
        return try await database.transaction { session in
            guard try session.preparedQuery(recorded, parameters)[0].decode("updated", as: Int.self) == 1 else { return false }
            _ = try WebhookEndpoints.disable(delivery.endpointID, reason: disable, organization: nil, except: delivery.id, in: session)
            return true
        }
    }

    /// Sends the events since `since` again, with their own webhook-ids, to
    /// every enabled endpoint subscribed to them (or to `endpoint` alone):
    /// deliveries made anew where there were none, finished ones started again
    /// with a fresh retry schedule; one under way is left to finish. The number of deliveries queued.
    public func replay(since: Date, endpoint: UUID?, _ scope: TenantScope) async throws -> Int {
        let rows = try await database.query(
            """
            WITH queued AS (
                INSERT INTO webhook_deliveries (organization_id, event_id, endpoint_id)
                SELECT e.organization_id, e.id, w.id FROM outbox_events e
                JOIN webhook_endpoints w ON w.organization_id = e.organization_id AND w.enabled AND e.event_type = ANY (w.event_types)
                WHERE e.created_at >= $1 AND ($2::uuid IS NULL OR w.id = $2) AND ($3::uuid IS NULL OR e.organization_id = $3)
                ON CONFLICT (event_id, endpoint_id) DO UPDATE
                SET state = 'pending', next_attempt_at = now(), finished_at = NULL, last_error = NULL,
                    attempts_before_replay = webhook_deliveries.attempts
                WHERE webhook_deliveries.state <> 'delivering'
                RETURNING id
            )
            SELECT count(*)::int AS queued FROM queued
            """, [since, endpoint, scope.organizationID])
        let queued: Int = try rows[0].decode("queued")
        if queued > 0 { _ = try await database.query("SELECT pg_notify($1, '')", [Self.deliveriesChannel]) }
        return queued
    }

    /// Deliveries as their endpoint's owner sees them, newest first: state, attempts, the last answer or error.
    public func deliveries(endpoint: UUID?, _ scope: TenantScope, limit: Int) async throws -> [DeliveryStatus] {
        try await database.query(
            """
            SELECT d.id, d.endpoint_id, e.event_id, e.event_type, d.state, d.attempts, d.next_attempt_at, d.last_error, d.created_at,
                   a.status_code, a.latency_ms, a.response_excerpt, a.attempted_at
            FROM webhook_deliveries d JOIN outbox_events e ON e.id = d.event_id
            LEFT JOIN LATERAL (
                SELECT status_code, latency_ms, response_excerpt, attempted_at FROM delivery_attempts
                WHERE delivery_id = d.id ORDER BY attempt DESC LIMIT 1
            ) a ON true
            WHERE ($1::uuid IS NULL OR d.endpoint_id = $1) AND ($2::uuid IS NULL OR d.organization_id = $2)
            ORDER BY d.id DESC LIMIT $3
            """, [endpoint, scope.organizationID, limit]
        ).map { row in
            DeliveryStatus(
                id: try row.decode("id"), endpointID: (try row.decode("endpoint_id") as UUID).uuidString.lowercased(), webhookID: try row.decode("event_id"),
                eventType: try row.decode("event_type"), state: try row.decode("state"), attempts: try row.decode("attempts"),
                nextAttemptAt: try row.decode("next_attempt_at"), lastError: try row.decode("last_error", as: String?.self),
                lastStatus: try row.decode("status_code", as: Int?.self), lastLatencyMilliseconds: try row.decode("latency_ms", as: Int?.self),
                lastResponse: try row.decode("response_excerpt", as: String?.self),
                lastAttemptAt: try row.decode("attempted_at", as: Date?.self), createdAt: try row.decode("created_at"))
        }
    }

    /// Every attempt, newest first, of an endpoint's deliveries (or all): status, latency, the answer's start or the error.
    public func attempts(endpoint: UUID?, _ scope: TenantScope, limit: Int) async throws -> [DeliveryAttempt] {
        try await database.query(
            """
            SELECT a.delivery_id, a.endpoint_id, e.event_id, a.attempt, a.outcome, a.status_code, a.latency_ms, a.error,
                   a.response_excerpt, a.attempted_at
            FROM delivery_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id JOIN outbox_events e ON e.id = a.event_id
            WHERE ($1::uuid IS NULL OR a.endpoint_id = $1) AND ($2::uuid IS NULL OR d.organization_id = $2)
            ORDER BY a.attempted_at DESC, a.id DESC LIMIT $3
            """, [endpoint, scope.organizationID, limit]
        ).map { row in
            DeliveryAttempt(
                deliveryID: try row.decode("delivery_id"), endpointID: (try row.decode("endpoint_id") as UUID).uuidString.lowercased(),
                webhookID: try row.decode("event_id"), attempt: try row.decode("attempt"), outcome: try row.decode("outcome"),
                status: try row.decode("status_code", as: Int?.self), latencyMilliseconds: try row.decode("latency_ms", as: Int?.self),
                error: try row.decode("error", as: String?.self), response: try row.decode("response_excerpt", as: String?.self),
                attemptedAt: try row.decode("attempted_at"))
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// One delivery as its endpoint's owner sees it.
public struct DeliveryStatus: Sendable, Encodable {
    public var id: Int64
    /// The endpoint's id, lowercase.
    public var endpointID: String
    public var webhookID: String
    public var eventType: String
    /// pending, delivering, delivered, dead or cancelled.
    public var state: String
    public var attempts: Int
    public var nextAttemptAt: Date
    public var lastError: String?
    public var lastStatus: Int?
    public var lastLatencyMilliseconds: Int?
    /// The start of the last response's body.
    public var lastResponse: String?
    public var lastAttemptAt: Date?
    public var createdAt: Date

    enum CodingKeys: String, CodingKey {
        case id, state, attempts
        case endpointID = "endpoint_id", webhookID = "webhook_id", eventType = "event_type", nextAttemptAt = "next_attempt_at"
        case lastError = "last_error", lastStatus = "last_status", lastLatencyMilliseconds = "last_latency_milliseconds"
        case lastResponse = "last_response", lastAttemptAt = "last_attempt_at", createdAt = "created_at"
    }
}

/// One attempt at a delivery, as its endpoint's owner sees it.
public struct DeliveryAttempt: Sendable, Encodable {
    public var deliveryID: Int64
    /// The endpoint's id, lowercase.
    public var endpointID: String
    public var webhookID: String
    public var attempt: Int
    /// delivered, failed (an answer other than 2xx) or refused (no answer: address refused, no connection, timeout).
    public var outcome: String
    public var status: Int?
    public var latencyMilliseconds: Int?
    public var error: String?
    /// The start of the answer's body.
    public var response: String?
    public var attemptedAt: Date
}
