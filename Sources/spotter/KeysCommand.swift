import ArgumentParser
import Foundation
import Store

extension Spotter {
    /// API keys, for operators: make one for an organization (by name), list and revoke them.
    struct KeysCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "keys",
            abstract: "Make, list and revoke API keys.",
            discussion: """
                A key is shown once, when made; only its SHA-256 is stored. A key reaches its own \
                organization's data only: coaches read and upload, admins also manage keys and webhooks.
                """,
            subcommands: [Create.self, List.self, Revoke.self])
    }
}

extension APIRole: ExpressibleByArgument {}

extension Spotter.KeysCommand {
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make an API key (and the organization, when there is none of that name).")

        @Option(help: "The organization's name (it is made when no organization has it), or its id.")
        var organization: String

        @Option(help: "coach (read and upload) or admin (also keys and webhooks).")
        var role = APIRole.coach

        @Option(help: "What the key is for, as listings show it.")
        var name = "API key"

        @Flag(help: "Print {\"organization\": …, \"key\": …} as JSON.")
        var json = false

        @OptionGroup var database: DatabaseOptions

        func validate() throws {
            guard !organization.trimmingCharacters(in: .whitespaces).isEmpty, organization.count <= 200 else {
                throw ValidationError("--organization must be a name of 1 to 200 characters")
            }
        }

        func run() async throws {
            let connection = try await database.connect()
            do {
                var found: Organization, made = false
                if let id = UUID(uuidString: organization), let known = try await Organization.all(on: connection).first(where: { $0.id == id }) {
                    found = known
                } else {
                    (found, made) = try await Organization.named(organization, on: connection)
                }
                let (key, secret) = try await APIKeys(database: connection).create(organizationID: found.id, role: role, name: name)
                if made { FileHandle.standardError.write(Data("made organization \(found.id.uuidString.lowercased()) (\(found.name))\n".utf8)) }
                if json { return try printJSON(["organization": found.name, "key": secret]) }
                print("key \(key.prefix) (\(key.role.rawValue)) for \(found.name) (\(found.id.uuidString.lowercased()))")
                print("\(secret)   (shown once: only its SHA-256 is kept)")
            } catch { throw commandFailure(error) }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List keys (never their secrets), oldest first.")

        @Flag(help: "Print the keys as a JSON array.")
        var json = false

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let keys: [APIKey]
            do { keys = try await APIKeys(database: try await database.connect()).list(scope: .allOrganizations) } catch { throw commandFailure(error) }
            if json { return try printJSON(keys) }
            let rows = keys.map { key in
                [key.id.uuidString.lowercased(), key.prefix, key.role.rawValue, key.organizationID.uuidString.lowercased(),
                 key.revokedAt.map { "revoked \(timestamp($0))" } ?? "live", key.name]
            }
            print(table([["id", "prefix", "role", "organization", "state", "name"]] + rows), terminator: "")
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a key: it is refused from then on.")

        @Argument(help: "The key's id.")
        var id: UUID

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let revoked: Bool
            do { revoked = try await APIKeys(database: try await database.connect()).revoke(id, scope: .allOrganizations) } catch {
                throw commandFailure(error)
            }
            guard revoked else { throw commandFailure(.usage, "no live key \(id.uuidString.lowercased())") }
            print("revoked key \(id.uuidString.lowercased())")
        }
    }
}
