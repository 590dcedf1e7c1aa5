import Foundation
import Postgres
import Server
import Store
import Transfer
import Webhooks

/// The notify stage's endpoints behind the API's `/v1/webhooks`: the glue that
/// lets the server (no libcurl) register URLs checked by libcurl's parser.
public struct WebhookRegistration: WebhookRegistry {
    private let endpoints: WebhookEndpoints
    private let deliveries: DeliveryQueue
    private let allowingHTTP: Bool
    private let policy: AddressPolicy

    /// - Parameters:
    ///   - allowingHTTP: whether plain http targets are taken (development).
    ///   - policy: which addresses a URL may name (checked again on every delivery).
    public init(database: any PostgresClient, sealing: SecretSealing, allowingHTTP: Bool, policy: AddressPolicy) {
        endpoints = WebhookEndpoints(database: database, sealing: sealing)
        deliveries = DeliveryQueue(database: database)
        self.allowingHTTP = allowingHTTP
        self.policy = policy
    }

    /// The endpoint as its owner sees it when it is made: with its secret.
    struct Created: Encodable, Sendable {
        var endpoint: WebhookEndpoint
        var secret: String

        func encode(to encoder: any Encoder) throws {
            try endpoint.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(secret, forKey: .secret)
        }

        enum Key: String, CodingKey {
            case secret
        }
    }

    public func add(url: String, events: [String]?, idempotencyKey: String?, organizationID: UUID) async throws -> any Encodable & Sendable {
        let target = try TargetURL(url, allowingHTTP: allowingHTTP, policy: policy)
        let (endpoint, secret) = try await endpoints.add(
            target, eventTypes: events ?? [], organizationID: organizationID, idempotencyKey: idempotencyKey)
        return Created(endpoint: endpoint, secret: secret.encoded)
    }

    public func list(organizationID: UUID) async throws -> any Encodable & Sendable {
        try await endpoints.list(.organization(organizationID))
    }

    public func remove(_ id: UUID, organizationID: UUID) async throws -> Bool {
        do {
            try await endpoints.disable(id, reason: "removed through the API", .organization(organizationID))
            return true
        } catch let error as WebhookError where error.code == .unknownEndpoint {
            return false
        }
    }

    public func deliveries(of id: UUID, organizationID: UUID, limit: Int) async throws -> (any Encodable & Sendable)? {
        guard try await endpoints.list(.organization(organizationID)).contains(where: { $0.id == id }) else { return nil }
        return try await deliveries.deliveries(endpoint: id, .organization(organizationID), limit: limit)
    }
}
