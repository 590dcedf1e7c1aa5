import ArgumentParser
import Logging
import Media

@main
struct Spotter: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spotter",
        abstract: "Watches workout videos the way a strength coach would.",
        discussion: """
            The MediaPipe engine and models are found under the cache directory \
            ($SPOTTER_CACHE_DIR, else $XDG_CACHE_HOME/spotter, else ~/.cache/spotter); \
            SPOTTER_MEDIAPIPE_LIBRARY and SPOTTER_MODEL_DIR override them. ops/setup installs both.
            """,
        version: "0.1.0",
        subcommands: [Analyze.self, Landmarks.self, Probe.self, RulesCommand.self, Migrate.self, JobsCommand.self, WebhooksCommand.self, KeysCommand.self, Serve.self, Worker.self, Thumbnails.self])
}

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Log debug detail to standard error.")
    var verbose = false

    /// Starts logging to standard error at the level the options ask for,
    /// or `SPOTTER_LOG_LEVEL` when it is set. A command that runs the
    /// MediaPipe engine passes `routingEngineLog` (see `EngineLogRouting`).
    func bootstrapLogging(routingEngineLog: Bool = false) -> Logger {
        let level = verbose ? .debug : CommandEnvironment.logLevel ?? .info
        LibavLog.configure(verbose: level <= .debug)
        if routingEngineLog { EngineLogRouting.install(level: level) }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        return Logger(label: "spotter")
    }
}
