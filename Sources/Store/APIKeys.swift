import Crypto
import Foundation
import Postgres

/// What an API key may do: coaches read and upload; admins also manage keys and webhooks.
public enum APIRole: String, Sendable, CaseIterable, Codable {
    case coach
    case admin
}

/// An API key as stored: never the key itself, which is shown once when made.
public struct APIKey: Sendable, Equatable, Codable {
    public var id: UUID
    public var organizationID: UUID
    public var role: APIRole
    public var name: String
    /// The key's public part, `spk_` and 12 hex digits: it finds the row and may be shown.
    public var prefix: String
    public var createdAt: Date
    public var revokedAt: Date?
}

/// API keys of every organization: made with a random secret, stored as the
/// SHA-256 of the whole key (a dump of the table cannot be used to call the
/// API), found again by their prefix.
///
/// A key reads `spk_<12 hex>_<43 base64url>`: 6 random bytes of prefix and 32
/// of secret, from the system's cryptographic generator.
public struct APIKeys: Sendable {
    public let database: any PostgresClient

    public init(database: any PostgresClient) {
        self.database = database
    }

    /// Makes a key for the organization; the key's text is returned this once.
    public func create(organizationID: UUID, role: APIRole, name: String) async throws -> (key: APIKey, secret: String) {
        var generator = SystemRandomNumberGenerator()
        let prefix = "spk_" + (0..<6).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
        let secretBytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let secret = prefix + "_" + Data(secretBytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        let rows = try await database.query(
            """
            INSERT INTO api_keys (organization_id, name, prefix, secret_sha256, role) VALUES ($1, $2, $3, $4, $5)
            RETURNING \(Self.columns)
            """, [organizationID, name, prefix, Self.digest(secret), role.rawValue])
        return (try Self.key(rows[0]), secret)
    }

    /// The key `presented` is, when it is a live key: nil for an unknown,
    /// altered or revoked one, or text that is no key at all (said the same way, on purpose).
    public func authenticate(_ presented: String) async throws -> APIKey? {
        // `spk_` + 12 hex + `_` + 43 base64url characters (which may themselves hold `_`).
        let bytes = Array(presented.utf8)
        guard bytes.count == 60, presented.hasPrefix("spk_"), bytes[16] == UInt8(ascii: "_") else { return nil }
        let prefix = String(decoding: bytes[..<16], as: UTF8.self)
        let rows = try await database.query(
            """
            UPDATE api_keys SET last_used_at = now()
            WHERE prefix = $1 AND secret_sha256 = $2 AND revoked_at IS NULL
            RETURNING \(Self.columns)
            """, [prefix, Self.digest(presented)])
        return try rows.first.map(Self.key)
    }

    /// Revokes a key of the scope; false when there is no such live key there.
    public func revoke(_ id: UUID, scope: TenantScope) async throws -> Bool {
        try await !database.query(
            """
            UPDATE api_keys SET revoked_at = now()
            WHERE id = $1 AND revoked_at IS NULL AND ($2::uuid IS NULL OR organization_id = $2::uuid) RETURNING id
            """, [id, scope.organizationID]).isEmpty
    }

    /// The keys of the scope, oldest first, revoked ones too.
    public func list(scope: TenantScope) async throws -> [APIKey] {
        try await database.query(
            """
            SELECT \(Self.columns) FROM api_keys
            WHERE $1::uuid IS NULL OR organization_id = $1::uuid ORDER BY created_at, id
            """, [scope.organizationID]).map(Self.key)
    }

    private static let columns = "id, organization_id, role, name, prefix, created_at, revoked_at"

    private static func digest(_ key: String) -> [UInt8] { Array(SHA256.hash(data: Data(key.utf8))) }

    private static func key(_ row: PostgresRow) throws -> APIKey {
        APIKey(
            id: try row.decode("id"), organizationID: try row.decode("organization_id"),
            role: APIRole(rawValue: try row.decode("role")) ?? .coach, name: try row.decode("name"),
            prefix: try row.decode("prefix"), createdAt: try row.decode("created_at"), revokedAt: try row.decode("revoked_at", as: Date?.self))
    }
}
