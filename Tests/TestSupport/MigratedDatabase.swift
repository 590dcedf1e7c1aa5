import Foundation
import Postgres
import Store

/// A connection to the test's database (see `PostgresDatabase`), or to `url`,
/// with the repository's migrations applied.
public func migratedDatabase(url: String = PostgresDatabase.url) async throws -> PostgresConnection {
    let connection = try await PostgresConnection.connect(to: url)
    let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Migrations").path
    _ = try await Migrator(files: MigrationFile.all(in: directory)).migrate(connection)
    return connection
}
