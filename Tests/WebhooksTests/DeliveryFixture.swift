import Foundation
import Logging
import Postgres
import Store
import Testing
import TestSupport
import Transfer
@testable import Webhooks

/// A migrated database with an organization, a receiver on loopback and the
/// parts of a dispatcher, for the delivery tests.
struct DeliveryFixture {
    static let sealing = try! SecretSealing(base64: Data((7..<39).map { UInt8($0) }).base64EncodedString())
    static let loopback = AddressPolicy(allowing: [.loopback])

    let connection: PostgresConnection
    let organization: Organization
    let server: LoopbackHTTPServer
    let endpoints: WebhookEndpoints
    let queue: DeliveryQueue

    init() async throws {
        connection = try await migratedDatabase()
        organization = try await Organization.create(name: "Delivery gym", on: connection)
        server = try LoopbackHTTPServer()
        endpoints = WebhookEndpoints(database: connection, sealing: Self.sealing)
        queue = DeliveryQueue(database: connection)
    }

    /// An endpoint on the receiver at `path`, with its secret.
    func endpoint(_ path: String = "/hook", events: [String] = [], organization: UUID? = nil) async throws -> (WebhookEndpoint, WebhookSecret) {
        let target = try TargetURL(server.url(path), allowingHTTP: true, policy: Self.loopback)
        return try await endpoints.add(target, eventTypes: events, organizationID: organization ?? self.organization.id)
    }

    /// An outbox event as the store writes it; its webhook-id.
    @discardableResult
    func event(_ type: String = "analysis.completed", organization: UUID? = nil, repCount: Int = 5) async throws -> String {
        let id = "msg_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let session = UUID().uuidString.lowercased()
        let payload = """
            {"type": "\(type)", "session_id": "\(session)", "job_id": 7, "report_url": "/v1/sessions/\(session)/report",
             "summary": {"exercise": "squat", "rep_count": \(repCount), "fault_counts": {"shallow_depth": 2}}}
            """
        _ = try await connection.query(
            "INSERT INTO outbox_events (event_id, organization_id, event_type, payload) VALUES ($1, $2, $3, $4::jsonb)",
            [id, organization ?? self.organization.id, type, payload])
        return id
    }

    /// A dispatcher on its own connection (as each worker has), retrying at once unless `waits` say otherwise.
    func dispatcher(waits: [TimeInterval] = [0, 0, 0], policy: AddressPolicy = loopback, lease: Duration = .seconds(60)) async throws -> WebhookDispatcher {
        let own = try await PostgresConnection.connect(to: PostgresDatabase.url)
        var configuration = WebhookDispatcher.Configuration()
        configuration.policy.retryWaits = waits
        configuration.publicURL = "https://spotter.example.com/"
        configuration.timeout = .seconds(120)  // no test here times out; a loaded CI machine can be slow to answer
        var queue = DeliveryQueue(database: own)
        queue.lease = lease
        return WebhookDispatcher(
            queue: queue, endpoints: WebhookEndpoints(database: own, sealing: Self.sealing),
            transfer: HTTPTransfer(addressPolicy: policy, userAgent: "Spotter-Webhooks-Test"), configuration: configuration,
            logger: Logger(label: "webhooks-test"))
    }

    func deliveries(_ endpoint: UUID) async throws -> [(state: String, attempts: Int, lastError: String?)] {
        try await connection.query(
            "SELECT state, attempts, last_error FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY id", [endpoint]
        ).map { (try $0.decode("state"), try $0.decode("attempts"), try $0.decode("last_error", as: String?.self)) }
    }

    func attempts(_ endpoint: UUID) async throws -> [(outcome: String, status: Int?, latency: Int?)] {
        try await connection.query(
            "SELECT outcome, status_code, latency_ms FROM delivery_attempts WHERE endpoint_id = $1 ORDER BY attempt", [endpoint]
        ).map { (try $0.decode("outcome"), try $0.decode("status_code", as: Int?.self), try $0.decode("latency_ms", as: Int?.self)) }
    }

    /// Every request the receiver got, checked by PyPI's standardwebhooks: one "ok" or "bad: …" each.
    func independentlyVerified(_ requests: [LoopbackHTTPServer.Request], secret: WebhookSecret) async throws -> [String] {
        try await StandardWebhooksVerifier.verify(requests, secret: secret.encoded)
    }
}
