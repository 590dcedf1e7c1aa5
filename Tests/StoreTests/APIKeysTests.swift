import Foundation
import Postgres
import Store
import Testing
import TestSupport

@Suite("API keys on a real server")
struct APIKeysTests {
    @Test("a key made is known by its text, with its organization and role; the database keeps only its SHA-256", .postgresDatabase)
    func createAndAuthenticate() async throws {
        let connection = try await migratedDatabase()
        let keys = APIKeys(database: connection)
        let gym = try await Organization.create(name: "Gym", on: connection)
        let (made, secret) = try await keys.create(organizationID: gym.id, role: .admin, name: "coach app")
        #expect(secret.wholeMatch(of: /spk_[0-9a-f]{12}_[A-Za-z0-9_-]{43}/) != nil, "\(secret)")
        #expect(secret.hasPrefix(made.prefix + "_"))

        let found = try #require(try await keys.authenticate(secret))
        #expect(found == made && found.organizationID == gym.id && found.role == .admin)

        // The table holds the prefix and a digest: not the key, nor its secret part.
        let stored = try await connection.query("SELECT prefix, encode(secret_sha256, 'hex') AS digest, name FROM api_keys")
        let secretPart = String(secret.dropFirst(made.prefix.count + 1))
        for row in stored {
            for column in ["prefix", "digest", "name"] {
                let text: String = try row.decode(column)
                #expect(!text.contains(secretPart) && text != secret)
            }
        }
        let used = try await connection.query("SELECT last_used_at IS NOT NULL AS used FROM api_keys")
        #expect(try used[0].decode("used", as: Bool.self))
    }

    @Test("an altered, unknown, malformed or revoked key is refused, each the same way", .postgresDatabase)
    func refused() async throws {
        let connection = try await migratedDatabase()
        let keys = APIKeys(database: connection)
        let gym = try await Organization.create(name: "Gym", on: connection)
        let (made, secret) = try await keys.create(organizationID: gym.id, role: .coach, name: "phone")
        var altered = Array(secret)
        altered[altered.count - 1] = altered.last == "A" ? "B" : "A"
        for presented in [String(altered), "spk_000000000000_" + String(repeating: "A", count: 43), "", "Bearer " + secret, secret + " ",
                          secret.uppercased(), made.prefix] {
            #expect(try await keys.authenticate(presented) == nil, "\(presented)")
        }
        let other = try await Organization.create(name: "Other", on: connection)
        #expect(try await !keys.revoke(made.id, scope: .organization(other.id)), "another organization cannot revoke it")
        #expect(try await keys.authenticate(secret) != nil)
        #expect(try await keys.revoke(made.id, scope: .organization(gym.id)))
        #expect(try await keys.authenticate(secret) == nil)
        #expect(try await keys.list(scope: .organization(gym.id)).map(\.revokedAt).allSatisfy { $0 != nil })
        #expect(try await keys.list(scope: .organization(other.id)).isEmpty)
    }

    @Test("an organization is found by its name, made once even by racing callers, and a shared name is refused", .postgresDatabase)
    func organizationsByName() async throws {
        let connection = try await migratedDatabase()
        let results = try await withThrowingTaskGroup(of: (UUID, Bool).self) { group in
            for _ in 0..<6 {
                group.addTask {
                    let own = try await PostgresConnection.connect(to: PostgresDatabase.url)
                    let (organization, made) = try await Organization.named("Riverside Barbell", on: own)
                    return (organization.id, made)
                }
            }
            return try await group.reduce(into: [(UUID, Bool)]()) { $0.append($1) }
        }
        #expect(Set(results.map(\.0)).count == 1 && results.filter(\.1).count == 1)
        _ = try await Organization.create(name: "Twin", on: connection)
        _ = try await Organization.create(name: "Twin", on: connection)
        let error = await #expect(throws: AmbiguousOrganization.self) { try await Organization.named("Twin", on: connection) }
        #expect(error?.safeMessage == "2 organizations are named \"Twin\"; name one by its id")
    }
}
