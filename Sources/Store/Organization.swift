import Contracts
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

    /// The organization called `name`, made when there is none (`made` says so).
    /// Concurrent calls with one new name make one organization.
    ///
    /// - Throws: `AmbiguousOrganization` when several share the name.
    public static func named(_ name: String, on connection: any PostgresClient) async throws -> (organization: Organization, made: Bool) {
        let found = try await connection.transaction { session in
            _ = try session.query("SELECT pg_advisory_xact_lock(hashtext('spotter.organizations'), hashtext($1))", [name])
            let ids = try session.query("SELECT id FROM organizations WHERE name = $1 ORDER BY created_at, id", [name])
                .map { try $0.decode("id", as: UUID.self) }
            if !ids.isEmpty { return (ids, false) }
            return ([try session.query("INSERT INTO organizations (name) VALUES ($1) RETURNING id", [name])[0].decode("id")], true)
        }
        guard found.0.count == 1 else { throw AmbiguousOrganization(name: name, count: found.0.count) }
        return (Organization(id: found.0[0], name: name), found.1)
    }
}

/// Several organizations share the name asked for: pass one's id instead.
public struct AmbiguousOrganization: Error, Sendable, DescribedFailure {
    public var name: String
    public var count: Int
    public var failureKind: FailureKind { .usage }
    public var safeMessage: String { "\(count) organizations are named \"\(name)\"; name one by its id" }
}
