import ArgumentParser
import Foundation
import Postgres
import Store

extension Spotter {
    struct Migrate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Bring the database schema up to date (Migrations/*.sql).",
            discussion: """
                Applies the pending migrations in order, each in a transaction, under an advisory \
                lock (two at once are safe). Refuses to run when an applied file was edited. \
                A no-op when the database is up to date.
                """)

        @OptionGroup var database: DatabaseOptions

        @Option(help: ArgumentHelp(
            "The migrations directory (default: $SPOTTER_MIGRATIONS_DIR, else the Migrations directory of this installation).",
            valueName: "dir"))
        var migrationsDir: String?

        func run() async throws {
            let directory = try Self.directory(migrationsDir)
            let connection = try await database.connect()
            try await Self.apply(directory, on: connection)
        }

        /// `explicit`, else `$SPOTTER_MIGRATIONS_DIR`, else this installation's `Migrations`.
        static func directory(_ explicit: String?) throws -> String {
            guard let directory = explicit
                ?? InstallationDirectory.find(
                    "Migrations", marker: "0001_initial_schema.sql", environmentVariable: "SPOTTER_MIGRATIONS_DIR")
            else {
                throw commandFailure(.unavailable, "no migrations directory found; set SPOTTER_MIGRATIONS_DIR or pass --migrations-dir")
            }
            return directory
        }

        /// Applies the pending migrations of `directory`, saying each on standard error.
        static func apply(_ directory: String, on connection: PostgresConnection) async throws {
            do {
                let outcome = try await Migrator(files: MigrationFile.all(in: directory)).migrate(connection)
                for file in outcome.applied {
                    FileHandle.standardError.write(Data("applied \(URL(fileURLWithPath: file.path).lastPathComponent)\n".utf8))
                }
                let total = outcome.alreadyApplied + outcome.applied.count
                let state = outcome.applied.isEmpty ? "was already up to date" : "is up to date"
                FileHandle.standardError.write(Data("the database \(state) (\(total) migration\(total == 1 ? "" : "s"))\n".utf8))
            } catch {
                throw commandFailure(error)
            }
        }
    }
}
