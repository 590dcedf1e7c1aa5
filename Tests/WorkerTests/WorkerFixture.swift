import Foundation
import LandmarkTracks
import Logging
import Postgres
import Store
import SyntheticMotion
import Testing
import TestSupport
import Worker

/// A migrated database with an organization, a scratch directory, and a worker
/// configuration with short intervals so that tests run quickly.
struct WorkerFixture {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    let queue: JobQueue
    let organization: Organization
    let directory: String
    var configuration: WorkerConfiguration

    init(databaseURL: String = PostgresDatabase.url) async throws {
        let connection = try await migratedDatabase(url: databaseURL)
        organization = try await Organization.create(name: "Worker test gym", on: connection)
        queue = JobQueue(connection: connection)
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-worker-test-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        configuration = WorkerConfiguration(
            databaseURL: databaseURL, rulesDirectory: Self.repository.appendingPathComponent("Rules").path,
            executable: SpotterProcess.executable.path, workDirectory: directory + "/work", concurrency: 2)
        configuration.heartbeatInterval = .milliseconds(200)
        // Long enough that a loaded machine (every suite at once on 2 cores) never loses a live lease.
        configuration.leaseDuration = .seconds(30)
        configuration.pollInterval = .milliseconds(200)
        configuration.retryPolicy = RetryPolicy(baseDelay: .milliseconds(50), maximumDelay: .milliseconds(100))
        configuration.addressPolicy = .allowingLoopback
        configuration.analysisTimeLimit = .seconds(300)
    }

    @discardableResult
    func enqueue(
        _ source: String, exercise: String = "squat", kind: JobKind = .scoreTrack, maxAttempts: Int = 3,
        origin: RequestOrigin = .operator
    ) async throws -> Job {
        try await queue.enqueue(AnalysisRequest(
            organizationID: organization.id, exercise: exercise, kind: kind, sourceURI: source,
            idempotencyKey: UUID().uuidString, maxAttempts: maxAttempts, origin: origin)).job
    }

    /// A synthetic squat set with `reps` reps, written as a track file; its path.
    func squatTrack(reps: Int, name: String = "squats.jsonl") throws -> String {
        var conditions = SetConditions()
        conditions.reps = reps
        let track = SyntheticSessions.make("squat", conditions, seed: UInt64(reps)).track
        let path = directory + "/" + name
        try LandmarkTrackWriter.jsonLines(of: track).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A file with `contents` in the scratch directory; its path.
    func file(_ name: String, _ contents: String, executable: Bool = false) throws -> String {
        let path = directory + "/" + name
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        if executable { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path) }
        return path
    }

    /// Waits until every job is finished (or in `states`), checking every 100 ms;
    /// fails after `limit`, so that a broken worker cannot hang the suite.
    func wait(
        for ids: [Int64], toBeIn states: Set<JobState> = [.succeeded, .failed, .dead, .cancelled],
        limit: Duration = .seconds(240)
    ) async throws -> [Job] {
        try await Self.wait(for: ids, on: queue, toBeIn: states, limit: limit)
    }

    /// `wait(for:toBeIn:limit:)` through `queue`'s connection, riding out a lost connection.
    static func wait(
        for ids: [Int64], on queue: JobQueue, toBeIn states: Set<JobState> = [.succeeded, .failed, .dead, .cancelled],
        limit: Duration = .seconds(240)
    ) async throws -> [Job] {
        let deadline = ContinuousClock.now + limit
        while true {
            var jobs: [Job] = []
            do {
                for id in ids { jobs.append(try #require(try await queue.job(id, .allOrganizations))) }
            } catch let error as PostgresError where error.isTransient {
                jobs = []
            }
            if jobs.count == ids.count, jobs.allSatisfy({ states.contains($0.state) }) { return jobs }
            guard ContinuousClock.now < deadline else {
                Issue.record("jobs did not reach \(states): \(jobs.map { "\($0.id) \($0.state)" })")
                return jobs
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// A number from a one-row query with a `count` column.
    func count(_ sql: String, _ parameters: [any PostgresEncodable] = []) async throws -> Int {
        try await queue.connection.query(sql, parameters)[0].decode("count", as: Int.self)
    }
}

/// Runs a worker with `configuration` while `body` runs, then stops it.
func withWorker<T>(_ configuration: WorkerConfiguration, _ body: () async throws -> T) async throws -> T {
    let worker = AnalysisWorker(configuration: configuration, logger: Logger(label: "test-worker"))
    let task = Task { try await worker.run() }
    do {
        let value = try await body()
        task.cancel()
        try await task.value
        return value
    } catch {
        task.cancel()
        _ = try? await task.value
        throw error
    }
}
