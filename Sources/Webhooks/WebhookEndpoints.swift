import Foundation
import Postgres
import Store
import Transfer

/// Webhook endpoints in the database: registered, listed, disabled and their
/// secrets rotated, each within a `TenantScope`. Secrets are stored sealed
/// (`SecretSealing`) and shown only when made.
public struct WebhookEndpoints: Sendable {
    public let database: any PostgresClient
    let sealing: SecretSealing

    /// How long deliveries are also signed with the secret a rotation replaced.
    public static let rotationOverlap: TimeInterval = 24 * 3600

    public init(database: any PostgresClient, sealing: SecretSealing) {
        self.database = database
        self.sealing = sealing
    }

    /// Registers `target` for `organizationID`: the endpoint and its new secret
    /// (shown once). With an `idempotencyKey` the organization used before, the
    /// endpoint that key made and its current secret instead, whatever the
    /// other arguments (a retry of the same request).
    public func add(
        _ target: TargetURL, eventTypes: [String], organizationID: UUID, idempotencyKey: String? = nil
    ) async throws -> (WebhookEndpoint, WebhookSecret) {
        let types = try WebhookEndpoint.eventTypes(eventTypes)
        let id = UUID(), secret = WebhookSecret.generate()
        let sealed = try sealing.seal(secret, for: id)
        let rows = try await database.query(
            """
            INSERT INTO webhook_endpoints (id, organization_id, url, event_types, secret_sealed, idempotency_key)
            VALUES ($1, $2, $3, string_to_array($4, ','), $5, $6)
            ON CONFLICT (organization_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
            RETURNING \(Self.columns)
            """, [id, organizationID, target.url, types.joined(separator: ","), [UInt8](sealed), idempotencyKey])
        if let row = rows.first { return (try Self.endpoint(row), secret) }
        let earlier = try await database.query(
            "SELECT \(Self.columns) FROM webhook_endpoints WHERE organization_id = $1 AND idempotency_key = $2",
            [organizationID, idempotencyKey])
        guard let row = earlier.first else { throw Self.unknown(id) }
        let endpoint = try Self.endpoint(row)
        return (endpoint, try await signingSecrets(endpoint.id, .organization(organizationID))[0])
    }

    /// The endpoints `scope` sees, oldest first.
    public func list(_ scope: TenantScope) async throws -> [WebhookEndpoint] {
        try await database.query(
            "SELECT \(Self.columns) FROM webhook_endpoints WHERE $1::uuid IS NULL OR organization_id = $1 ORDER BY created_at, id",
            [scope.organizationID]
        ).map(Self.endpoint)
    }

    /// Stops deliveries to an endpoint, saying why; its pending deliveries are cancelled.
    @discardableResult
    public func disable(_ id: UUID, reason: String, _ scope: TenantScope) async throws -> WebhookEndpoint {
        let found = try await database.transaction { session in
            try Self.disable(id, reason: reason, organization: scope.organizationID, except: nil, in: session).map(Self.endpoint)
        }
        guard let found else { throw Self.unknown(id) }
        return found
    }

    /// Disables an endpoint (of `organization`, nil for any) with its reason and cancels its
    /// unfinished deliveries but `except`, within `session`'s transaction; the endpoint's row, nil when unknown.
    static func disable(
        _ id: UUID, reason: String, organization: UUID?, except delivery: Int64?, in session: PostgresSession
    ) throws -> PostgresRow? {
        let rows = try session.query(
            """
            UPDATE webhook_endpoints SET enabled = false, disabled_reason = $3, disabled_at = coalesce(disabled_at, now())
            WHERE id = $1 AND ($2::uuid IS NULL OR organization_id = $2)
            RETURNING \(columns)
            """, [id, organization, reason])
        guard let row = rows.first else { return nil }
        try session.query(
            """
            UPDATE webhook_deliveries SET state = 'cancelled', finished_at = now(), lease_id = NULL, lease_expires_at = NULL,
                last_error = $2
            WHERE endpoint_id = $1 AND state IN ('pending', 'delivering') AND id IS DISTINCT FROM $3
            """, [id, "endpoint disabled: \(reason)", delivery])
        return row
    }

    /// A new secret for an endpoint; the one it replaces still signs for `rotationOverlap`.
    public func rotateSecret(_ id: UUID, _ scope: TenantScope) async throws -> WebhookSecret {
        let secret = WebhookSecret.generate()
        let sealed = [UInt8](try sealing.seal(secret, for: id))
        let rows = try await database.query(
            """
            UPDATE webhook_endpoints
            SET previous_secret_sealed = secret_sealed, previous_secret_until = now() + make_interval(secs => $3),
                secret_sealed = $4
            WHERE id = $1 AND ($2::uuid IS NULL OR organization_id = $2)
            RETURNING id
            """, [id, scope.organizationID, Self.rotationOverlap, sealed])
        guard !rows.isEmpty else { throw Self.unknown(id) }
        return secret
    }

    /// The secrets deliveries to an endpoint are signed with now: the current one, and the previous during its overlap.
    public func signingSecrets(_ id: UUID, _ scope: TenantScope) async throws -> [WebhookSecret] {
        let rows = try await database.query(
            """
            SELECT secret_sealed, CASE WHEN previous_secret_until > now() THEN previous_secret_sealed END AS previous
            FROM webhook_endpoints WHERE id = $1 AND ($2::uuid IS NULL OR organization_id = $2)
            """, [id, scope.organizationID])
        guard let row = rows.first else { throw Self.unknown(id) }
        let current: [UInt8] = try row.decode("secret_sealed"), previous: [UInt8]? = try row.decode("previous", as: [UInt8]?.self)
        return try [current, previous].compactMap { $0 }.map { try sealing.unseal(Data($0), for: id) }
    }

    private static let columns = """
        id, organization_id, url, array_to_string(event_types, ',') AS event_types, enabled, disabled_reason, created_at,
        CASE WHEN previous_secret_until > now() THEN previous_secret_until END AS previous_secret_until
        """

    private static func endpoint(_ row: PostgresRow) throws -> WebhookEndpoint {
        WebhookEndpoint(
            id: try row.decode("id"), organizationID: try row.decode("organization_id"), url: try row.decode("url"),
            eventTypes: (try row.decode("event_types") as String).split(separator: ",").map(String.init),
            enabled: try row.decode("enabled"), disabledReason: try row.decode("disabled_reason", as: String?.self),
            createdAt: try row.decode("created_at"), previousSecretUntil: try row.decode("previous_secret_until", as: Date?.self))
    }

    private static func unknown(_ id: UUID) -> WebhookError {
        WebhookError(.unknownEndpoint, "no webhook endpoint \(id.uuidString.lowercased())")
    }
}
