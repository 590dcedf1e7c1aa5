import Foundation
import Hummingbird
import Contracts

/// The webhook endpoints of organizations, as the API needs them. The server
/// links no libcurl: the process that runs it hands it the notify stage's
/// registry (whose URL checks use libcurl's own parser). Answers are encoded
/// as they are (the notify stage's types own their JSON).
public protocol WebhookRegistry: Sendable {
    /// Registers `url` for the organization's events (all when `events` is nil):
    /// the endpoint with its new secret, shown this once — or, for an
    /// `idempotencyKey` used before, the endpoint it made with its current
    /// secret. A URL or event type that cannot be used throws a failure of
    /// kind `usage`, its message safe to show.
    func add(url: String, events: [String]?, idempotencyKey: String?, organizationID: UUID) async throws -> any Encodable & Sendable
    /// The organization's endpoints, oldest first.
    func list(organizationID: UUID) async throws -> any Encodable & Sendable
    /// Stops deliveries to the organization's endpoint `id`; false when it has none such.
    func remove(_ id: UUID, organizationID: UUID) async throws -> Bool
    /// The newest deliveries to the organization's endpoint `id`; nil when it has none such.
    func deliveries(of id: UUID, organizationID: UUID, limit: Int) async throws -> (any Encodable & Sendable)?
}

/// How the API checks a client's `video_url` before making its session (the
/// transfer stage's rules, handed in by the process that runs the server). A
/// URL that cannot be used throws a failure whose message is safe to show.
public protocol VideoURLPolicy: Sendable {
    func check(_ url: String) throws
}

/// `/v1/webhooks`: the caller's organization's endpoints.
struct WebhookRoutes {
    let registry: WebhookRegistry?

    struct NewEndpoint: Decodable {
        var url: String
        var events: [String]?
    }

    func add(to group: RouterGroup<APIRequestContext>) {
        group.post("webhooks") { request, context in
            let registry = try available()
            let body = try await APIJSON.decode(NewEndpoint.self, request, context, fields: ["url", "events"], shape: #"{"url": …, "events"?: [...]}"#)
            let idempotencyKey = try APIJSON.idempotencyKey(request)
            do {
                return try Response.json(
                    try await registry.add(
                        url: body.url, events: body.events, idempotencyKey: idempotencyKey, organizationID: try context.organizationID),
                    status: .created)
            } catch let failure as any DescribedFailure where failure.failureKind == .usage || failure.failureKind == .badInput {
                throw APIProblem("invalid-webhook", .unprocessableContent, "This webhook cannot be registered", detail: failure.safeMessage)
            }
        }
        group.get("webhooks") { _, context in
            try Response.json(try await available().list(organizationID: try context.organizationID))
        }
        group.delete("webhooks/:id") { _, context in
            guard try await available().remove(try Self.endpointID(context), organizationID: try context.organizationID) else {
                throw APIProblem.notFound
            }
            return Response(status: .noContent)
        }
        group.get("webhooks/:id/deliveries") { request, context in
            let limit = request.uri.queryParameters.get("limit").flatMap { Int($0) } ?? 50
            guard (1...500).contains(limit) else { throw APIProblem.invalid("limit must be within 1...500") }
            guard let found = try await available().deliveries(
                of: try Self.endpointID(context), organizationID: try context.organizationID, limit: limit)
            else { throw APIProblem.notFound }
            return try Response.json(found)
        }
    }

    private func available() throws -> WebhookRegistry {
        guard let registry else {
            throw APIProblem("webhooks-disabled", .serviceUnavailable, "This server registers no webhooks",
                             detail: "its operator has not set SPOTTER_WEBHOOK_KEY")
        }
        return registry
    }

    private static func endpointID(_ context: APIRequestContext) throws -> UUID {
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw APIProblem.notFound }
        return id
    }
}
