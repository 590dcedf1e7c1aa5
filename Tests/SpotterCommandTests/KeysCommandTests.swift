import Foundation
import Postgres
import Store
import TestSupport
import Testing

/// `spotter keys …` as an operator runs it (contracts §1).
@Suite("spotter keys")
struct KeysCommandTests {
    func spotter(_ arguments: [String]) async throws -> SubprocessOutcome {
        try await SpotterProcess.run(arguments, environment: ["SPOTTER_DATABASE_URL": PostgresDatabase.url])
    }

    @Test("create prints exactly the organization and the key, once; the key works, list never shows it, revoke ends it", .postgresDatabase)
    func lifecycle() async throws {
        #expect(try await spotter(["migrate"]).status == 0)
        let created = try await spotter(["keys", "create", "--organization", "Riverside Barbell", "--role", "admin", "--json"])
        #expect(created.status == 0, "\(created.standardError)")
        let made = try #require(try JSONSerialization.jsonObject(with: created.standardOutput) as? [String: String])
        #expect(Set(made.keys) == ["organization", "key"] && made["organization"] == "Riverside Barbell")
        let key = try #require(made["key"])
        #expect(created.standardError.contains("made organization"))

        // A second key for the same name: the same organization, not a new one.
        let second = try await spotter(["keys", "create", "--organization", "Riverside Barbell"])
        #expect(second.status == 0 && !second.standardError.contains("made organization"))
        let connection = try await PostgresConnection.connect(to: PostgresDatabase.url)
        let known = try #require(try await APIKeys(database: connection).authenticate(key))
        #expect(known.role == .admin)
        #expect(try await Organization.all(on: connection).map(\.name) == ["Riverside Barbell"])

        let listed = try await spotter(["keys", "list", "--json"])
        let text = String(decoding: listed.standardOutput, as: UTF8.self)
        #expect(listed.status == 0 && text.contains(known.prefix) && !text.contains(key) && text.contains("\"role\":\"admin\""))
        #expect(try await spotter(["keys", "revoke", known.id.uuidString]).status == 0)
        #expect(try await APIKeys(database: connection).authenticate(key) == nil)
        let again = try await spotter(["keys", "revoke", known.id.uuidString])
        #expect(again.status == 64 && again.errorLines.first?.contains("no live key") == true)
    }

    @Test("a bad role, an empty name or a name two organizations share is refused with one line; an id picks one", .postgresDatabase)
    func refusals() async throws {
        #expect(try await spotter(["migrate"]).status == 0)
        #expect(try await spotter(["keys", "create", "--organization", "Gym", "--role", "owner"]).status == 64)
        #expect(try await spotter(["keys", "create", "--organization", " "]).status == 64)
        let connection = try await PostgresConnection.connect(to: PostgresDatabase.url)
        _ = try await Organization.create(name: "Twin", on: connection)
        _ = try await Organization.create(name: "Twin", on: connection)
        let shared = try await spotter(["keys", "create", "--organization", "Twin"])
        #expect(shared.status == 64 && shared.errorLines == ["spotter: error: 2 organizations are named \"Twin\"; name one by its id"],
                "\(shared.standardError)")
        #expect(try await APIKeys(database: connection).list(scope: .allOrganizations).isEmpty)
        let twin = try #require(try await Organization.all(on: connection).first)
        let byID = try await spotter(["keys", "create", "--organization", twin.id.uuidString, "--json"])
        #expect(byID.status == 0 && String(decoding: byID.standardOutput, as: UTF8.self).contains("\"organization\":\"Twin\""))
    }
}
