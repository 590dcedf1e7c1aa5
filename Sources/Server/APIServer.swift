import Foundation
import Hummingbird
import Logging
import Postgres
import Rules
import ServiceLifecycle
import Storage
import Store

/// The HTTP API (contracts §6) as a service: `run()` serves until graceful
/// shutdown. Its OpenAPI document (`openapi.json`, in this module) is the
/// source of truth for the routes, and is served at `/openapi.json`.
public struct APIServer: Service {
    /// Where to listen: `127.0.0.1` and 8080 by default; port 0 picks a free one.
    public var host: String
    public var port: Int
    private let database: any PostgresClient
    private let rules: RuleBook
    private let logger: Logger
    private let onListening: @Sendable (Int) async -> Void
    /// Requests a second each key may make, and how many at once.
    public var rateLimit: (rate: Double, burst: Double) = (100, 200)
    /// Where uploaded videos and tracks go; nil: sessions come from `video_url`s only.
    public var uploads: Uploads?
    /// How long a connection may send nothing (a request, or the next bytes
    /// of an upload) before it is closed: a client that stalls holds nothing for long.
    public var idleTimeout: Duration = .seconds(30)
    /// The longest a request may take, and an upload (its body sent at any
    /// pace): past it the request is answered 408 and its upload discarded.
    public var requestTimeLimit: (request: Duration, upload: Duration) = (.seconds(60), .seconds(30 * 60))
    /// How long a key the database accepted is trusted without asking again (a
    /// revoked key stops working within it).
    public var keyTrust: Duration = .seconds(5)
    /// How `video_url`s are checked when a session is made (the transfer stage's
    /// rules); nil: by their scheme only, the worker checking each connection.
    public var videoURLs: (any VideoURLPolicy)?
    /// The webhook endpoints (from the notify stage); nil: `/v1/webhooks` answers 503.
    public var webhooks: (any WebhookRegistry)?

    /// - Parameter onListening: told the port once the server listens.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, database: any PostgresClient, rules: RuleBook, logger: Logger,
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) {
        self.host = host
        self.port = port
        self.database = database
        self.rules = rules
        self.logger = logger
        self.onListening = onListening
    }

    public func run() async throws {
        let onListening = self.onListening
        let application = Application(
            router: router(), server: .http1(configuration: .init(idleTimeout: .seconds(Int64(idleTimeout.components.seconds)))),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "spotter"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) }, logger: logger)
        try await application.run()
    }

    /// The OpenAPI document the routes follow.
    public static let openAPIDocument: Data = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json"), let data = try? Data(contentsOf: url) else {
            preconditionFailure("openapi.json is missing from the Server module's resources")
        }
        return data
    }()

    func router() -> Router<APIRequestContext> {
        let router = Router(context: APIRequestContext.self)
        let metrics = ServerMetrics()
        router.add(middleware: AccessLog(logger: logger, metrics: metrics))
        router.add(middleware: ProblemMiddleware(routes: DocumentedRoutes(document: Self.openAPIDocument)))
        router.add(middleware: RequestTimeLimit(limit: requestTimeLimit.request, uploadLimit: requestTimeLimit.upload))
        let database = self.database
        router.get("healthz") { _, _ in try Response.json(["status": "ok"]) }
        router.get("readyz") { _, context in
            do {
                _ = try await database.query("SELECT 1 AS ready")
            } catch {
                context.logger.warning("not ready: \(String(describing: error))")
                throw APIProblem.unavailable
            }
            return try Response.json(["status": "ready"])
        }
        router.get("metrics") { _, context in
            let statistics: QueueStatistics
            do { statistics = try await QueueStatistics.read(on: database) } catch {
                context.logger.warning("metrics without the database: \(String(describing: error))")
                throw APIProblem.unavailable
            }
            let text = metrics.exposition(statistics)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        router.get("openapi.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: Self.openAPIDocument)))
        }
        let v1 = router.group("v1")
            .add(middleware: KeyAuthentication(keys: APIKeys(database: database), trustedFor: keyTrust))
            .add(middleware: RateLimiting(rate: rateLimit.rate, burst: rateLimit.burst))
        if let uploads { StorageRoutes(uploads: uploads).add(to: router) }
        SessionRoutes(store: AnalysisStore(queue: JobQueue(connection: database)), rules: rules, uploads: uploads, videoURLs: videoURLs).add(to: v1)
        AthleteRoutes(database: database, rules: rules).add(to: v1)
        WebhookRoutes(registry: webhooks).add(to: v1)
        return router
    }
}
