import ArgumentParser
import Contracts
import Foundation
import Landmarkers
import Logging
import ServiceLifecycle
import Postgres
import Storage
import Transfer
import Webhooks
import Worker

extension Spotter {
    struct Worker: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run analysis jobs from the database's queue until SIGTERM.",
            discussion: """
                Any number of workers on any number of hosts may share one database. Each \
                video is analysed by a `spotter landmarks` child process with a time limit, \
                so a crash or hang fails that job only. On SIGTERM or SIGINT the worker stops \
                claiming, lets running jobs finish within --shutdown-grace seconds, then gives \
                the rest back to the queue.

                The worker also delivers webhooks (when $SPOTTER_WEBHOOK_KEY is set: the key \
                endpoint secrets are sealed with), sharing the outbox with every other worker.
                """)

        @Option(help: "Jobs run at once.")
        var concurrency = 1

        @Option(help: ArgumentHelp("Scratch space for downloads and tracks (default: a spotter-worker directory under the temporary directory).", valueName: "dir"))
        var workDir: String?

        @Option(help: "Seconds one video's analysis may take before it is stopped and the job failed.")
        var analysisTimeLimit = 900

        @Option(help: ArgumentHelp("Mebibytes of memory one video's analysis may use before it is stopped and the job failed.", valueName: "MiB"))
        var analysisMemoryLimit = 4096

        @Option(help: "Seconds running jobs get to finish after SIGTERM.")
        var shutdownGrace = 30

        @Option(help: "Seconds a webhook delivery being sent is held; should this worker die, another sends it again after them.")
        var webhookLease = 60

        @Flag(help: "Let video URLs point at loopback and private addresses (development only).")
        var allowPrivateSources = false

        @Option(help: "Where the analyses' models run: cpu, or gpu (a real GPU with its EGL driver).")
        var delegate = BaseOptions.Delegate.cpu

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var rules: RulesLocation
        @OptionGroup var global: GlobalOptions

        func validate() throws {
            guard (1...64).contains(concurrency) else { throw ValidationError("--concurrency must be within 1...64") }
            guard webhookLease >= 1 else { throw ValidationError("--webhook-lease must be at least 1 second") }
            guard analysisTimeLimit > 0, shutdownGrace >= 0 else {
                throw ValidationError("--analysis-time-limit must be positive and --shutdown-grace not negative")
            }
            guard (64...(1 << 20)).contains(analysisMemoryLimit) else {
                throw ValidationError("--analysis-memory-limit must be within 64...1048576 MiB")
            }
        }

        func run() async throws {
            let logger = global.bootstrapLogging()
            var configuration = WorkerConfiguration(
                databaseURL: try database.url(), rulesDirectory: try rules.directory(),
                executable: Self.executablePath(), concurrency: concurrency)
            if let workDir { configuration.workDirectory = workDir }
            configuration.analysisTimeLimit = .seconds(analysisTimeLimit)
            configuration.analysisMemoryLimit = analysisMemoryLimit << 20
            configuration.shutdownGrace = .seconds(shutdownGrace)
            if allowPrivateSources { configuration.addressPolicy = .allowingPrivateNetworks }
            configuration.delegate = delegate.rawValue
            configuration.uploads = try Self.uploadAccess()
            var services: [any Service] = [AnalysisWorker(configuration: configuration, logger: logger)]
            if let dispatcher = try await webhookDispatcher(logger: logger) { services.append(dispatcher) }
            let group = ServiceGroup(configuration: ServiceGroupConfiguration(
                services: services,
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
            do { try await group.run() } catch { throw commandFailure(error) }
        }

        /// The webhook dispatcher, or nil (said once in the log) when no sealing key is set.
        private func webhookDispatcher(logger: Logger) async throws -> WebhookDispatchService? {
            let sealing: SecretSealing
            do {
                sealing = try SecretSealing.fromEnvironment()
            } catch {
                logger.warning("webhooks are not delivered by this worker: \(error.message)")
                return nil
            }
            let url = try database.url()
            var settings = WebhookDispatcher.Configuration()
            settings.publicURL = ProcessInfo.processInfo.environment["SPOTTER_PUBLIC_URL"]
            let policy: AddressPolicy = Spotter.WebhooksCommand.allowsPrivateTargets ? Spotter.WebhooksCommand.targetPolicy : .publicOnly
            return WebhookDispatchService(
                databaseURL: url, sealing: sealing, settings: settings, lease: .seconds(webhookLease), policy: policy, logger: logger)
        }

        /// How uploads kept by the API are fetched: `SPOTTER_API_URL` and
        /// `SPOTTER_STORAGE_KEY`, both or neither.
        static func uploadAccess(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> WorkerConfiguration.UploadAccess? {
            let signing: StorageSigning?
            do { signing = try StorageSigning.fromEnvironment(environment) } catch { throw commandFailure(.usage, error.description) }
            let url = environment["SPOTTER_API_URL"].flatMap { $0.isEmpty ? nil : $0 }
            switch (url, signing) {
            case (nil, nil): return nil
            case (let url?, let signing?):
                guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil else {
                    throw commandFailure(.usage, "SPOTTER_API_URL must be the API's http(s) URL, not \(url)")
                }
                return WorkerConfiguration.UploadAccess(apiURL: url, signing: signing)
            default:
                throw commandFailure(.usage, "set both SPOTTER_API_URL and SPOTTER_STORAGE_KEY (to fetch uploaded videos from the API), or neither")
            }
        }

        /// This executable, for the analysis child processes.
        static func executablePath() -> String {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        }
    }
}

/// The webhook dispatcher as a service of the worker: its own connections (one
/// for the work, one listening), stopped on graceful shutdown; an attempt under
/// way when it stops is taken up again by any dispatcher when its lease runs out.
struct WebhookDispatchService: Service {
    let databaseURL: String
    let sealing: SecretSealing
    let settings: WebhookDispatcher.Configuration
    let lease: Duration
    /// Where deliveries may connect.
    let policy: AddressPolicy
    let logger: Logger

    func run() async throws {
        let work = try await PostgresConnection.connect(to: databaseURL)
        let listener = try await PostgresConnection.connect(to: databaseURL)
        var queue = DeliveryQueue(database: work)
        queue.lease = lease
        let dispatcher = WebhookDispatcher(
            queue: queue, endpoints: WebhookEndpoints(database: work, sealing: sealing),
            transfer: HTTPTransfer(addressPolicy: policy, userAgent: "Spotter-Webhooks"), configuration: settings, logger: logger)
        try await cancelWhenGracefulShutdown { try await dispatcher.run(listener: listener) }
        await work.close()
        await listener.close()
    }
}
