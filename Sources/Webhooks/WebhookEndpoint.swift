import Foundation

/// A client's URL that receives the events of its organization.
public struct WebhookEndpoint: Sendable, Equatable, Encodable {
    public var id: UUID
    public var organizationID: UUID
    public var url: String
    /// The event types it is sent, in order.
    public var eventTypes: [String]
    public var enabled: Bool
    /// Why it was disabled (by its owner, a `410 Gone`, or days of failures).
    public var disabledReason: String?
    public var createdAt: Date
    /// Until when deliveries are also signed with the secret before the last rotation.
    public var previousSecretUntil: Date?

    /// The event types Spotter sends (contracts §5).
    public static let eventTypes = ["analysis.completed", "analysis.failed"]

    enum CodingKeys: String, CodingKey {
        case id, url, enabled
        case organizationID = "organization_id"
        case eventTypes = "events"
        case disabledReason = "disabled_reason"
        case createdAt = "created_at"
        case previousSecretUntil = "previous_secret_until"
    }

    /// Ids as lowercase text, as everywhere Spotter prints them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id.uuidString.lowercased(), forKey: .id)
        try container.encode(organizationID.uuidString.lowercased(), forKey: .organizationID)
        try container.encode(url, forKey: .url)
        try container.encode(eventTypes, forKey: .eventTypes)
        try container.encode(enabled, forKey: .enabled)
        try container.encode(disabledReason, forKey: .disabledReason)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(previousSecretUntil, forKey: .previousSecretUntil)
    }

    /// `types` checked against the types Spotter sends, in their order, without repeats; all of them when empty.
    public static func eventTypes(_ types: [String]) throws(WebhookError) -> [String] {
        if let unknown = types.first(where: { !Self.eventTypes.contains($0) }) {
            throw WebhookError(
                .unknownEventType, "unknown event type \"\(unknown)\" (Spotter sends \(Self.eventTypes.joined(separator: ", ")))")
        }
        return types.isEmpty ? Self.eventTypes : Self.eventTypes.filter(types.contains)
    }
}
