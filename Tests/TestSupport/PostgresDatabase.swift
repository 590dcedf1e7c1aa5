import Foundation
import Landmarkers
import Synchronization
import Testing

/// A fresh PostgreSQL database for a suite or a test, on a private server that
/// `ops/postgres` runs for the tests.
///
/// ```swift
/// @Suite(.postgresDatabase) struct QueueTests {
///     @Test func enqueue() async throws {
///         let url = PostgresDatabase.url  // postgresql://spotter@/spotter_test_…?host=…
///     }
/// }
/// ```
///
/// The first use in a test process starts the server once with
/// `ops/postgres start --dir DIR`, DIR being `$SPOTTER_TEST_POSTGRES_DIR`, else
/// `test-postgres` in the cache directory (`$SPOTTER_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/spotter`, else `~/.cache/spotter`); `ops/test` stops it at
/// the end. A suite with the trait, and each test case of a test function with
/// it, gets a database of its own, `spotter_test_<random>`, created before it
/// runs and dropped after it (best effort). When the server or the database
/// cannot be made, the suite or test fails with the script's error; it is never
/// skipped.
public struct PostgresDatabase: SuiteTrait, TestTrait, TestScoping {
    /// The libpq URI of the database of the suite or test running, `nil` outside one.
    @TaskLocal public static var current: String?

    /// The libpq URI of the database of the suite or test running. Reading it
    /// outside a suite or test with the trait is a programming error and stops the process.
    public static var url: String {
        guard let current else {
            preconditionFailure("PostgresDatabase.url was read outside a suite or test with the .postgresDatabase trait")
        }
        return current
    }

    /// Runs `function` with a new database as ``current``, then drops the database.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let name = "spotter_test_" + String(UInt64.random(in: .min ... .max), radix: 16)
        let url = try await PostgresServer.createDatabase(name)
        try await withCleanup { try await Self.$current.withValue(url, operation: function) } cleanup: {
            _ = try? await PostgresServer.run(["dropdb", name])
        }
    }
}

extension Trait where Self == PostgresDatabase {
    /// A fresh PostgreSQL database for the suite or test: see ``PostgresDatabase``.
    public static var postgresDatabase: Self { PostgresDatabase() }
}

/// The tests' PostgreSQL server, run by the repository's `ops/postgres`.
enum PostgresServer {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ops/postgres")

    /// `$SPOTTER_TEST_POSTGRES_DIR`, else `test-postgres` in the cache directory, as `ops/lib/common.sh` finds it.
    static let directory: String = {
        let environment = ProcessInfo.processInfo.environment
        if let explicit = environment["SPOTTER_TEST_POSTGRES_DIR"], !explicit.isEmpty { return explicit }
        return MediaPipeInstallation.cacheDirectory(environment) + "/test-postgres"
    }()

    /// Starting the server, once per process; every caller awaits the same start.
    private static let start = Mutex<Task<Void, any Error>?>(nil)

    /// Starts the server unless this process already did, and creates database `name`; returns its URL.
    static func createDatabase(_ name: String) async throws -> String {
        let started = start.withLock { start in
            if let start { return start }
            let task = Task { _ = try await url(["start"]) }
            start = task
            return task
        }
        try await started.value
        return try await url(["createdb", name])
    }

    /// Runs `ops/postgres ARGUMENTS --dir DIR`; returns its standard output, or fails with its error.
    static func run(_ arguments: [String], directory: String = directory) async throws -> String {
        let outcome = try await runSubprocess(script, arguments + ["--dir", directory])
        guard outcome.status == 0 else {
            throw PostgresDatabaseError(
                description: "ops/postgres \(arguments.joined(separator: " ")) --dir \(directory) failed "
                    + "(exit \(outcome.status)): \(outcome.standardError.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        return String(decoding: outcome.standardOutput, as: UTF8.self)
    }

    /// Runs `ops/postgres ARGUMENTS --dir DIR` and returns the database URL it printed.
    static func url(_ arguments: [String], directory: String = directory) async throws -> String {
        let output = try await run(arguments, directory: directory), prefix = "SPOTTER_DATABASE_URL="
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix(prefix) }) else {
            throw PostgresDatabaseError(description: "ops/postgres \(arguments.joined(separator: " ")) printed no URL: \(output)")
        }
        return String(line.dropFirst(prefix.count))
    }
}

/// A PostgreSQL server of one test's own, in a temporary directory, for tests
/// that stop and restart the server under a running client.
public struct ScratchPostgresServer: Sendable {
    public let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-postgres-\(UUID())").path

    public init() {}

    /// Runs `body` with a started scratch server and its database's URL; the
    /// server is stopped and its directory removed however `body` ends.
    public static func with<T: Sendable>(_ body: (ScratchPostgresServer, String) async throws -> T) async throws -> T {
        let server = ScratchPostgresServer()
        return try await withCleanup { try await body(server, try await server.start()) } cleanup: { await server.remove() }
    }

    /// Starts the server (initialising it the first time); returns its database's URL.
    public func start() async throws -> String {
        try await PostgresServer.url(["start"], directory: directory)
    }

    public func stop() async throws {
        _ = try await PostgresServer.run(["stop"], directory: directory)
    }

    /// Stops the server and removes its directory.
    public func remove() async {
        try? await stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// Why a test's PostgreSQL database could not be made, in `ops/postgres`'s words.
public struct PostgresDatabaseError: Error, CustomStringConvertible {
    public var description: String
}

/// Runs `body`, then `cleanup` however `body` ends: an `async` clean-up cannot run in a `defer`.
func withCleanup<T>(_ body: () async throws -> T, cleanup: () async -> Void) async throws -> T {
    do {
        let value = try await body()
        await cleanup()
        return value
    } catch {
        await cleanup()
        throw error
    }
}
