import Foundation
import Postgres
import Store
import Testing
import TestSupport
import Transfer
@testable import Webhooks

@Suite("Webhook endpoints in the database", .postgresDatabase)
struct WebhookEndpointsTests {
    static let sealing = try! SecretSealing(base64: Data((100..<132).map { UInt8($0) }).base64EncodedString())

    static func endpoints() async throws -> (WebhookEndpoints, Organization, PostgresConnection) {
        let connection = try await migratedDatabase()
        let organization = try await Organization.create(name: "Webhook gym", on: connection)
        return (WebhookEndpoints(database: connection, sealing: sealing), organization, connection)
    }

    static let target = try! TargetURL("https://hooks.example.com/spotter", allowingHTTP: false, policy: .publicOnly)

    @Test("an endpoint is stored with its secret sealed: the database alone holds no secret, the sealing key opens it")
    func sealedAtRest() async throws {
        let (endpoints, organization, connection) = try await Self.endpoints()
        let (endpoint, secret) = try await endpoints.add(Self.target, eventTypes: [], organizationID: organization.id)
        #expect(endpoint.eventTypes == WebhookEndpoint.eventTypes && endpoint.enabled && endpoint.url == Self.target.url)
        let row = try await connection.query(
            "SELECT encode(secret_sealed, 'base64') AS sealed, row_to_json(e)::text AS everything FROM webhook_endpoints e WHERE id = $1",
            [endpoint.id])[0]
        let everything: String = try row.decode("everything")
        let keyBase64 = String(secret.encoded.dropFirst(6))
        #expect(!everything.contains(keyBase64) && !everything.contains("whsec_"))
        #expect(try await endpoints.signingSecrets(endpoint.id, .organization(organization.id)) == [secret])
        let otherKey = WebhookEndpoints(database: connection, sealing: try SecretSealing(base64: Data(repeating: 1, count: 32).base64EncodedString()))
        await #expect(throws: WebhookError.self) { try await otherKey.signingSecrets(endpoint.id, .allOrganizations) }
    }

    @Test("a rotated secret signs beside the new one for a day; the new one first")
    func rotation() async throws {
        let (endpoints, organization, connection) = try await Self.endpoints()
        let (endpoint, first) = try await endpoints.add(Self.target, eventTypes: ["analysis.completed"], organizationID: organization.id)
        #expect(endpoint.eventTypes == ["analysis.completed"])
        let second = try await endpoints.rotateSecret(endpoint.id, .organization(organization.id))
        #expect(try await endpoints.signingSecrets(endpoint.id, .allOrganizations) == [second, first])
        let listed = try #require(try await endpoints.list(.organization(organization.id)).first)
        let until = try #require(listed.previousSecretUntil)
        #expect(abs(until.timeIntervalSinceNow - WebhookEndpoints.rotationOverlap) < 120)
        // A day later only the new secret signs.
        _ = try await connection.query(
            "UPDATE webhook_endpoints SET previous_secret_until = now() - interval '1 second' WHERE id = $1", [endpoint.id])
        #expect(try await endpoints.signingSecrets(endpoint.id, .allOrganizations) == [second])
    }

    @Test("another organization's endpoint answers like an unknown one, to listing, disabling and rotating")
    func tenants() async throws {
        let (endpoints, organization, connection) = try await Self.endpoints()
        let other = try await Organization.create(name: "Other gym", on: connection)
        let (endpoint, _) = try await endpoints.add(Self.target, eventTypes: [], organizationID: organization.id)
        #expect(try await endpoints.list(.organization(other.id)).isEmpty)
        await #expect(throws: WebhookError.self) { try await endpoints.disable(endpoint.id, reason: "x", .organization(other.id)) }
        await #expect(throws: WebhookError.self) { try await endpoints.rotateSecret(endpoint.id, .organization(other.id)) }
        await #expect(throws: WebhookError.self) { try await endpoints.signingSecrets(endpoint.id, .organization(other.id)) }
        #expect(try await endpoints.list(.organization(organization.id)).map(\.enabled) == [true])
    }

    @Test("disabling keeps the reason for the owner and cancels what was still to be delivered")
    func disabling() async throws {
        let (endpoints, organization, connection) = try await Self.endpoints()
        let (endpoint, _) = try await endpoints.add(Self.target, eventTypes: [], organizationID: organization.id)
        let event = try await connection.query(
            "INSERT INTO outbox_events (event_id, organization_id, event_type, payload) VALUES ($1, $2, 'analysis.completed', '{}') RETURNING id",
            ["msg_" + UUID().uuidString, organization.id])[0]
        let eventID: Int64 = try event.decode("id")
        _ = try await connection.query(
            "INSERT INTO webhook_deliveries (organization_id, event_id, endpoint_id) VALUES ($1, $2, $3)", [organization.id, eventID, endpoint.id])
        let disabled = try await endpoints.disable(endpoint.id, reason: "410 Gone from the receiver", .organization(organization.id))
        #expect(!disabled.enabled && disabled.disabledReason == "410 Gone from the receiver")
        let state: String = try await connection.query("SELECT state FROM webhook_deliveries WHERE endpoint_id = $1", [endpoint.id])[0].decode("state")
        #expect(state == "cancelled")
    }

    @Test("unknown event types are refused, naming the ones Spotter sends")
    func eventTypes() throws {
        #expect(throws: WebhookError.self) { try WebhookEndpoint.eventTypes(["analysis.completed", "report.ready"]) }
        #expect(try WebhookEndpoint.eventTypes(["analysis.failed", "analysis.completed", "analysis.failed"]) == WebhookEndpoint.eventTypes)
    }
}
