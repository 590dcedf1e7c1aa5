import ArgumentParser
import Foundation
import Postgres

/// Where the database is: `--database-url`, else `$SPOTTER_DATABASE_URL`.
struct DatabaseOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "A libpq connection string or URI (default: $SPOTTER_DATABASE_URL).", valueName: "url"))
    var databaseURL: String?

    /// The connection string, or a usage error when none is given.
    func url() throws -> String {
        if let databaseURL, !databaseURL.isEmpty { return databaseURL }
        if let url = ProcessInfo.processInfo.environment["SPOTTER_DATABASE_URL"], !url.isEmpty { return url }
        throw commandFailure(.usage, "no database given: set SPOTTER_DATABASE_URL or pass --database-url")
    }

    /// A connection to the database; exit 69 when it cannot be reached.
    func connect() async throws -> PostgresConnection {
        let url = try url()
        do { return try await PostgresConnection.connect(to: url) } catch { throw commandFailure(error) }
    }
}
