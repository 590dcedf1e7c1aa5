import ArgumentParser
import APIAdapters
import Foundation
import Logging
import Postgres
import Rules
import Server
import ServiceLifecycle
import Storage
import Transfer
import Webhooks
import Worker

extension Spotter {
    /// The HTTP API (contracts §6) until SIGTERM or SIGINT; with `--dev`, the whole backend.
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Serve the HTTP API (contracts §6) over the database until SIGTERM; --dev: the whole backend on this machine.",
            discussion: """
                Requests to /v1 need `Authorization: Bearer <key>` (`spotter keys create`); /healthz, \
                /readyz, /openapi.json and /metrics need none. Sessions are analysed by `spotter worker` processes \
                sharing the database. Uploads (POST /v1/sessions with a video/* or application/x-ndjson body) \
                are kept in --storage-dir and fetched by workers through URLs signed with $SPOTTER_STORAGE_KEY \
                (workers need it too, and $SPOTTER_API_URL); without a storage directory the server takes video_url \
                sessions only.

                --dev runs everything in this one process for development: a private PostgreSQL in --dev-dir \
                (started unless a database is given, stopped on exit), migrations, the organization `dev` with a new \
                admin key, uploads in --dev-dir, an analysis worker and the webhook dispatcher (loopback targets \
                allowed). It prints SPOTTER_URL=… and SPOTTER_API_KEY=… on standard error once it listens.
                """)

        @Option(help: "The address to listen on.")
        var host = "127.0.0.1"

        @Option(help: "The port to listen on (0: any free one, printed on standard error).")
        var port = 8080

        @Option(help: "Database connections the server holds at most.")
        var connections = 8

        @Option(help: "Requests a second each API key may make (twice as many at once); more are answered 429.")
        var rateLimit = 100.0

        @Option(help: ArgumentHelp("Where uploads are kept (default: $SPOTTER_STORAGE_DIR; none: uploads are refused).", valueName: "dir"))
        var storageDir: String?

        @Option(help: ArgumentHelp("The largest video upload, in mebibytes.", valueName: "MiB"))
        var maxUpload = 1024

        @Flag(help: "Let video URLs point at loopback and private addresses (development only; as the worker's flag).")
        var allowPrivateSources = false

        @Flag(help: "Run the whole backend in this process, for development (see above).")
        var dev = false

        @Option(help: ArgumentHelp(
            "Where --dev keeps its database, uploads and keys (default: $SPOTTER_CACHE_DIR/dev, else ~/.cache/spotter/dev).",
            valueName: "dir"))
        var devDir: String?

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var rules: RulesLocation
        @OptionGroup var global: GlobalOptions

        func validate() throws {
            guard (0...65535).contains(port) else { throw ValidationError("--port must be within 0...65535") }
            guard (1...64).contains(connections) else { throw ValidationError("--connections must be within 1...64") }
            guard rateLimit > 0, rateLimit.isFinite else { throw ValidationError("--rate-limit must be a positive number") }
            guard (1...(1 << 20)).contains(maxUpload) else { throw ValidationError("--max-upload must be within 1...1048576 MiB") }
            guard dev || devDir == nil else { throw ValidationError("--dev-dir is for --dev") }
        }

        func run() async throws {
            let logger = global.bootstrapLogging()
            let book: RuleBook
            do { book = try RuleBook(directory: try rules.directory()) } catch { throw commandFailure(error) }
            if dev {
                try await runDevelopmentBackend(book, logger)
                return
            }
            let pool = PostgresConnectionPool(url: try database.url(), size: connections)
            let host = self.host
            var server = try apiServer(pool, book, uploads: try configuredUploads(), logger) { port in
                FileHandle.standardError.write(Data("listening on http://\(host):\(port)\n".utf8))
            }
            server.videoURLs = VideoURLChecks(policy: allowPrivateSources ? .allowingPrivateNetworks : .publicOnly)
            do {
                let sealing = try SecretSealing.fromEnvironment()
                server.webhooks = WebhookRegistration(
                    database: pool, sealing: sealing, allowingHTTP: WebhooksCommand.allowsPrivateTargets, policy: WebhooksCommand.targetPolicy)
            } catch {
                logger.warning("/v1/webhooks answers 503: \(error.message)")
            }
            try await Self.run([server], logger)
            await pool.close()
        }

        private func apiServer(
            _ pool: PostgresConnectionPool, _ book: RuleBook, uploads: Uploads?, _ logger: Logger,
            onListening: @escaping @Sendable (Int) async -> Void
        ) throws -> APIServer {
            var server = APIServer(host: host, port: port, database: pool, rules: book, logger: logger, onListening: onListening)
            server.rateLimit = (rateLimit, 2 * rateLimit)
            server.uploads = uploads.map { uploads in
                var limited = uploads
                limited.maxVideoBytes = maxUpload << 20
                return limited
            }
            return server
        }

        /// `--storage-dir` (or `$SPOTTER_STORAGE_DIR`) with `$SPOTTER_STORAGE_KEY`; nil when no directory is given.
        private func configuredUploads() throws -> Uploads? {
            guard let directory = storageDir ?? ProcessInfo.processInfo.environment["SPOTTER_STORAGE_DIR"], !directory.isEmpty else {
                return nil
            }
            let signing: StorageSigning?
            do { signing = try StorageSigning.fromEnvironment() } catch { throw commandFailure(.usage, error.description) }
            guard let signing else {
                throw commandFailure(.usage, "uploads need \(StorageSigning.keyVariable) (the base64 of 32 bytes), which workers share to fetch them")
            }
            do { return Uploads(store: try ContentStore(directory: directory), signing: signing) } catch {
                throw commandFailure(.cannotCreate, error.description)
            }
        }

        private static func run(_ services: [any Service], _ logger: Logger) async throws {
            let group = ServiceGroup(configuration: ServiceGroupConfiguration(
                services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
            do { try await group.run() } catch { throw commandFailure(error) }
        }

        // MARK: - --dev

        private func runDevelopmentBackend(_ book: RuleBook, _ logger: Logger) async throws {
            let backend = try DevBackend(directory: devDir ?? DevBackend.defaultDirectory())
            let given = database.databaseURL ?? ProcessInfo.processInfo.environment["SPOTTER_DATABASE_URL"]
            let startsPostgres = given?.isEmpty ?? true
            let databaseURL = startsPostgres ? try backend.startPostgres() : given!
            do {
                let connection = try await PostgresConnection.connect(to: databaseURL)
                try await Migrate.apply(try Migrate.directory(nil), on: connection)
                let key = try await backend.adminKey(on: connection)
                await connection.close()
                try await serveEverything(backend, databaseURL: databaseURL, apiKey: key, book, logger)
            } catch {
                if startsPostgres { try? backend.stopPostgres() }
                throw error
            }
            if startsPostgres { try backend.stopPostgres() }
        }

        private func serveEverything(_ backend: DevBackend, databaseURL: String, apiKey: String, _ book: RuleBook, _ logger: Logger) async throws {
            let pool = PostgresConnectionPool(url: databaseURL, size: connections)
            let uploads = try backend.uploads
            let (ports, listening) = AsyncStream.makeStream(of: Int.self)
            let host = self.host
            let sealing = try backend.webhookSealing
            var server = try apiServer(pool, book, uploads: uploads, logger) { port in
                FileHandle.standardError.write(Data("SPOTTER_URL=http://\(host):\(port)\nSPOTTER_API_KEY=\(apiKey)\n".utf8))
                listening.yield(port)
                listening.finish()
            }
            server.webhooks = WebhookRegistration(database: pool, sealing: sealing, allowingHTTP: true, policy: .allowingLoopback)
            server.videoURLs = VideoURLChecks(policy: .allowingLoopback)
            var settings = WorkerConfiguration(
                databaseURL: databaseURL, rulesDirectory: try rules.directory(), executable: Worker.executablePath())
            settings.addressPolicy = .allowingLoopback
            settings.workDirectory = backend.directory + "/work"
            let worker = OnceListening(ports: ports) { [settings] port in
                var configuration = settings
                configuration.uploads = WorkerConfiguration.UploadAccess(apiURL: "http://\(host):\(port)", signing: uploads.signing)
                return AnalysisWorker(configuration: configuration, logger: logger)
            }
            let dispatcher = WebhookDispatchService(
                databaseURL: databaseURL, sealing: sealing, settings: .init(), lease: .seconds(60),
                policy: .allowingLoopback, logger: logger)
            do { try await Self.run([server, worker, dispatcher], logger) } catch {
                await pool.close()
                throw error
            }
            await pool.close()
        }
    }
}

/// A service that starts once the API listens, knowing its port: the dev
/// worker fetches uploads from the API it runs beside.
struct OnceListening: Service {
    let ports: AsyncStream<Int>
    let make: @Sendable (Int) -> any Service

    func run() async throws {
        for await port in ports.cancelOnGracefulShutdown() {
            try await make(port).run()
            return
        }
    }
}
