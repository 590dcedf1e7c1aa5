import Foundation
import Postgres
import Store

/// A connection to the test's database (see `PostgresDatabase`), with the
/// repository's migrations applied.
public func migratedDatabase() async throws -> PostgresConnection {
    let connection = try await PostgresConnection.connect(to: PostgresDatabase.url)
    let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Migrations").path
    _ = try await Migrator(files: MigrationFile.all(in: directory)).migrate(connection)
    return connection
}
