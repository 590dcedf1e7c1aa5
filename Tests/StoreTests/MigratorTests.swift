import Foundation
import Postgres
import Store
import Testing
import TestSupport

@Suite("Migrations")
struct MigratorTests {
    /// The repository's own migrations; the extra ones these tests add come after them.
    static let shipped = (try? MigrationFile.all(in: StoreFixtures.migrationsDirectory).count) ?? 0
    static let extraName = String(format: "%04d", shipped + 1)

    /// A directory holding the repository's migrations plus `extra` files.
    func directory(extra: [String: String] = [:]) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("migrations-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for file in try MigrationFile.all(in: StoreFixtures.migrationsDirectory) {
            try file.sql.write(toFile: directory + "/" + URL(fileURLWithPath: file.path).lastPathComponent, atomically: true, encoding: .utf8)
        }
        for (name, sql) in extra { try sql.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8) }
        return directory
    }

    @Test("a fresh database gets every migration; a second run is a no-op", .postgresDatabase)
    func freshAndUpToDate() async throws {
        let connection = try await PostgresConnection.connect(to: PostgresDatabase.url)
        let migrator = try Migrator(files: MigrationFile.all(in: directory()))
        let first = try await migrator.migrate(connection)
        #expect(first.applied.map(\.version) == Array(1...Self.shipped) && first.alreadyApplied == 0)
        let second = try await migrator.migrate(connection)
        #expect(second.applied.isEmpty && second.alreadyApplied == Self.shipped)
        #expect(try await StoreFixtures.count(connection, "SELECT count(*)::int AS count FROM schema_migrations") == Self.shipped)
        #expect(try await StoreFixtures.count(connection, "SELECT count(*)::int AS count FROM jobs") == 0)
    }

    @Test("migrators running at once apply each migration once", .postgresDatabase)
    func concurrent() async throws {
        let migrator = try Migrator(files: MigrationFile.all(in: directory(extra: ["\(Self.extraName)_more.sql": "CREATE TABLE more (id int);"])))
        let url = PostgresDatabase.url
        let outcomes = try await withThrowingTaskGroup(of: Migrator.Outcome.self) { group in
            for _ in 0..<4 {
                group.addTask { try await migrator.migrate(PostgresConnection.connect(to: url)) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.map(\.applied.count).reduce(0, +) == Self.shipped + 1)
        let connection = try await PostgresConnection.connect(to: url)
        #expect(try await StoreFixtures.count(connection, "SELECT count(*)::int AS count FROM schema_migrations") == Self.shipped + 1)
    }

    @Test("an applied file that was edited stops the migrator, naming the file", .postgresDatabase)
    func edited() async throws {
        let connection = try await PostgresConnection.connect(to: PostgresDatabase.url)
        let migrations = try directory(extra: ["\(Self.extraName)_more.sql": "CREATE TABLE more (id int);"])
        _ = try await Migrator(files: MigrationFile.all(in: migrations)).migrate(connection)
        try "CREATE TABLE more (id bigint);".write(toFile: migrations + "/\(Self.extraName)_more.sql", atomically: true, encoding: .utf8)
        let error = try await #require(throws: MigrationError.self) {
            try await Migrator(files: MigrationFile.all(in: migrations)).migrate(connection)
        }
        #expect(error.file.hasSuffix("\(Self.extraName)_more.sql") && error.reason.contains("edited"))

        try FileManager.default.removeItem(atPath: migrations + "/\(Self.extraName)_more.sql")
        let missing = try await #require(throws: MigrationError.self) {
            try await Migrator(files: MigrationFile.all(in: migrations)).migrate(connection)
        }
        #expect(missing.reason.contains("missing"))
    }

    @Test("a migration the server refuses leaves nothing of itself behind", .postgresDatabase)
    func refused() async throws {
        let connection = try await PostgresConnection.connect(to: PostgresDatabase.url)
        let migrations = try directory(extra: ["\(Self.extraName)_broken.sql": "CREATE TABLE half (id int); CREATE TABLE oops (id nosuchtype);"])
        let error = try await #require(throws: MigrationError.self) {
            try await Migrator(files: MigrationFile.all(in: migrations)).migrate(connection)
        }
        #expect(error.file.hasSuffix("\(Self.extraName)_broken.sql") && error.reason.contains("nosuchtype"))
        #expect(try await StoreFixtures.count(connection, "SELECT count(*)::int AS count FROM schema_migrations") == Self.shipped)
        #expect(try await StoreFixtures.count(connection, "SELECT count(*)::int AS count FROM pg_tables WHERE tablename = 'half'") == 0)
    }

    @Test("misnamed files and repeated versions are refused")
    func badNames() throws {
        for (extra, reason) in [
            (["2_short.sql": ""], "NNNN_name.sql"), (["0003.sql": ""], "NNNN_name.sql"),
            (["0001_again.sql": ""], "also taken"),
        ] {
            let error = try #require(throws: MigrationError.self) { try MigrationFile.all(in: directory(extra: extra)) }
            #expect(error.description.contains(reason), "\(error)")
        }
    }
}
