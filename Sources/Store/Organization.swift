import Foundation
import Postgres

/// A tenant: its people, athletes, sessions and reports are seen by it alone.
public struct Organization: Sendable, Equatable, Codable {
    public var id: UUID
    public var name: String

    /// Makes an organization.
    public static func create(name: String, on connection: any PostgresClient) async throws -> Organization {
        let rows = try await connection.query("INSERT INTO organizations (name) VALUES ($1) RETURNING id", [name])
        return Organization(id: try rows[0].decode("id"), name: name)
    }

    /// Every organization, oldest first.
    public static func all(on connection: any PostgresClient) async throws -> [Organization] {
        try await connection.query("SELECT id, name FROM organizations ORDER BY created_at, id").map {
            Organization(id: try $0.decode("id"), name: try $0.decode("name"))
        }
    }
}
