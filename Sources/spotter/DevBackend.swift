import Foundation
import Postgres
import Server
import Storage
import Store
import Webhooks

/// What `spotter serve --dev` keeps in its directory: a private PostgreSQL
/// (`ops/postgres`), the uploads, and the keys that sign fetch URLs and seal
/// webhook secrets (made once, readable by this user only), so that a restart
/// finds everything as it was.
struct DevBackend {
    let directory: String

    /// `$SPOTTER_CACHE_DIR/dev`, else `$XDG_CACHE_HOME/spotter/dev`, else `~/.cache/spotter/dev` (as `ops/` has it).
    static func defaultDirectory(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let cache = environment["SPOTTER_CACHE_DIR"], !cache.isEmpty { return cache + "/dev" }
        if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty { return xdg + "/spotter/dev" }
        return FileManager.default.homeDirectoryForCurrentUser.path + "/.cache/spotter/dev"
    }

    init(directory: String) throws {
        self.directory = URL(fileURLWithPath: directory).standardizedFileURL.path
        do {
            try FileManager.default.createDirectory(
                atPath: self.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw commandFailure(.cannotCreate, "cannot make \(directory): \(error.localizedDescription)")
        }
    }

    // MARK: - PostgreSQL

    /// Starts the private server unless it runs; its connection string.
    func startPostgres() throws -> String {
        let line = try postgres(["start", "--dir", directory + "/postgres"])
        guard let url = line.split(separator: "\n").last.flatMap({ $0.hasPrefix("SPOTTER_DATABASE_URL=") ? $0.dropFirst(21) : nil }) else {
            throw commandFailure(.unavailable, "ops/postgres start said no SPOTTER_DATABASE_URL")
        }
        return String(url)
    }

    /// Stops the private server (a fast shutdown).
    func stopPostgres() throws {
        _ = try postgres(["stop", "--dir", directory + "/postgres"])
    }

    /// Runs `ops/postgres` and returns what it printed on standard output.
    private func postgres(_ arguments: [String]) throws -> String {
        guard let ops = InstallationDirectory.find("ops", marker: "postgres", environmentVariable: "SPOTTER_OPS_DIR") else {
            throw commandFailure(.unavailable, "ops/postgres not found: run from the repository or set SPOTTER_OPS_DIR")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ops + "/postgres")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        do { try process.run() } catch { throw commandFailure(.unavailable, "cannot run \(ops)/postgres: \(error.localizedDescription)") }
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw commandFailure(.unavailable, "ops/postgres \(arguments[0]) failed (exit \(process.terminationStatus)); its errors are above")
        }
        return String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // MARK: - Keys

    /// The organization `dev` and a new admin key of it, named for this start.
    func adminKey(on connection: PostgresConnection) async throws -> String {
        do {
            let (organization, _) = try await Organization.named("dev", on: connection)
            let stamp = ISO8601DateFormatter().string(from: Date())
            return try await APIKeys(database: connection).create(organizationID: organization.id, role: .admin, name: "serve --dev \(stamp)").secret
        } catch {
            throw commandFailure(error)
        }
    }

    var uploads: Uploads {
        get throws {
            let store: ContentStore
            do { store = try ContentStore(directory: directory + "/storage") } catch { throw commandFailure(.cannotCreate, error.description) }
            return Uploads(store: store, signing: StorageSigning(key: try key("storage.key")))
        }
    }

    var webhookSealing: SecretSealing {
        get throws {
            do { return try SecretSealing(base64: try key("webhook.key").base64EncodedString()) } catch { throw commandFailure(error) }
        }
    }

    /// 32 random bytes kept in `name` (made 0600 on first use).
    private func key(_ name: String) throws -> Data {
        let path = directory + "/" + name
        if let text = try? String(contentsOfFile: path, encoding: .utf8),
           let bytes = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)), bytes.count == 32 {
            return bytes
        }
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes.base64EncodedString().utf8), attributes: [.posixPermissions: 0o600])
        else { throw commandFailure(.cannotCreate, "cannot write \(path)") }
        return bytes
    }
}
