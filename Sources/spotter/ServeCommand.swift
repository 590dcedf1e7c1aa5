import ArgumentParser
import Foundation
import Logging
import Postgres
import Rules
import Server
import ServiceLifecycle

extension Spotter {
    /// The HTTP API (contracts §6) until SIGTERM or SIGINT.
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Serve the HTTP API (contracts §6) over the database until SIGTERM.",
            discussion: """
                Requests to /v1 need `Authorization: Bearer <key>` (`spotter keys create`); /healthz, \
                /readyz, /openapi.json and /metrics need none. Sessions are analysed by `spotter worker` processes \
                sharing the database. Not built yet (issue 13): uploads of videos and tracks, \
                the webhook routes and --dev.
                """)

        @Option(help: "The address to listen on.")
        var host = "127.0.0.1"

        @Option(help: "The port to listen on (0: any free one, printed on standard error).")
        var port = 8080

        @Option(help: "Database connections the server holds at most.")
        var connections = 8

        @Option(help: "Requests a second each API key may make (twice as many at once); more are answered 429.")
        var rateLimit = 100.0

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var rules: RulesLocation
        @OptionGroup var global: GlobalOptions

        func validate() throws {
            guard (0...65535).contains(port) else { throw ValidationError("--port must be within 0...65535") }
            guard (1...64).contains(connections) else { throw ValidationError("--connections must be within 1...64") }
            guard rateLimit > 0, rateLimit.isFinite else { throw ValidationError("--rate-limit must be a positive number") }
        }

        func run() async throws {
            let logger = global.bootstrapLogging()
            let book: RuleBook
            do { book = try RuleBook(directory: try rules.directory()) } catch { throw commandFailure(error) }
            let pool = PostgresConnectionPool(url: try database.url(), size: connections)
            let host = self.host
            var server = APIServer(host: host, port: port, database: pool, rules: book, logger: logger) { port in
                FileHandle.standardError.write(Data("listening on http://\(host):\(port)\n".utf8))
            }
            server.rateLimit = (rateLimit, 2 * rateLimit)
            let group = ServiceGroup(configuration: ServiceGroupConfiguration(
                services: [server], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
            do { try await group.run() } catch { throw commandFailure(error) }
            await pool.close()
        }
    }
}
