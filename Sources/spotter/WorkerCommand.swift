import ArgumentParser
import Contracts
import Foundation
import Logging
import ServiceLifecycle
import Transfer
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
                """)

        @Option(help: "Jobs run at once.")
        var concurrency = 1

        @Option(help: ArgumentHelp("Scratch space for downloads and tracks (default: a spotter-worker directory under the temporary directory).", valueName: "dir"))
        var workDir: String?

        @Option(help: "Seconds one video's analysis may take before it is stopped and the job failed.")
        var analysisTimeLimit = 900

        @Option(help: "Seconds running jobs get to finish after SIGTERM.")
        var shutdownGrace = 30

        @Flag(help: "Let video URLs point at loopback and private addresses (development only).")
        var allowPrivateSources = false

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var rules: RulesLocation
        @OptionGroup var global: GlobalOptions

        func validate() throws {
            guard (1...64).contains(concurrency) else { throw ValidationError("--concurrency must be within 1...64") }
            guard analysisTimeLimit > 0, shutdownGrace >= 0 else {
                throw ValidationError("--analysis-time-limit must be positive and --shutdown-grace not negative")
            }
        }

        func run() async throws {
            let logger = global.bootstrapLogging()
            var configuration = WorkerConfiguration(
                databaseURL: try database.url(), rulesDirectory: try rules.directory(),
                executable: Self.executablePath(), concurrency: concurrency)
            if let workDir { configuration.workDirectory = workDir }
            configuration.analysisTimeLimit = .seconds(analysisTimeLimit)
            configuration.shutdownGrace = .seconds(shutdownGrace)
            if allowPrivateSources { configuration.addressPolicy = .allowingPrivateNetworks }
            let group = ServiceGroup(configuration: ServiceGroupConfiguration(
                services: [AnalysisWorker(configuration: configuration, logger: logger)],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
            do { try await group.run() } catch { throw commandFailure(error) }
        }

        /// This executable, for the analysis child processes.
        static func executablePath() -> String {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        }
    }
}
