// usage: QueueBenchmark DATABASE_URL MIGRATIONS_DIR [JOBS] [WORKERS,…]
// Measures the job queue on a real PostgreSQL server: for each number of
// workers (one connection each), JOBS jobs are enqueued, then claimed and
// completed (no result to store: one statement each, fenced by the lease) until none
// is left. The bound, measured on the same server in the same run, is the
// least a queue must do per job: one `FOR UPDATE SKIP LOCKED` claim and one
// update to finish it, as bare SQL over the same libpq layer, both statements
// prepared on each connection as the queue's are. Prints one JSON
// object per worker count: jobs/s enqueued, jobs/s through the queue, jobs/s
// of the bound, and checks every job ran exactly once.
import Foundation
import Postgres
import Store

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: QueueBenchmark DATABASE_URL MIGRATIONS_DIR [JOBS] [WORKERS,…]\n".utf8))
    exit(64)
}
let url = arguments[1]
let jobCount = arguments.count > 3 ? Int(arguments[3]) ?? 2000 : 2000
let workerCounts = arguments.count > 4 ? arguments[4].split(separator: ",").compactMap { Int($0) } : [1, 2, 4, 8]
let clock = ContinuousClock()

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

let setup = try await PostgresConnection.connect(to: url)
_ = try await Migrator(files: MigrationFile.all(in: arguments[2])).migrate(setup)
let organization = try await Organization.create(name: "Benchmark", on: setup)

/// Empties the queue and enqueues `jobCount` jobs; jobs/s of enqueueing.
func enqueueAll(_ run: Int) async throws -> Double {
    try await setup.query("TRUNCATE jobs, sessions CASCADE")
    let queue = JobQueue(connection: setup)
    let start = clock.now
    for index in 0..<jobCount {
        _ = try await queue.enqueue(AnalysisRequest(
            organizationID: organization.id, exercise: "squat", kind: .scoreTrack,
            sourceURI: "/bench/\(run)/\(index).jsonl", idempotencyKey: "bench-\(run)-\(index)", origin: .operator))
    }
    return Double(jobCount) / seconds(clock.now - start)
}

/// Runs `workers` tasks, each with its own connection, until `work` finds nothing; jobs/s.
func drain(_ workers: Int, _ work: @escaping @Sendable (PostgresConnection) async throws -> Bool) async throws -> Double {
    let connections = try await (0..<workers).asyncMap { _ in try await PostgresConnection.connect(to: url) }
    let start = clock.now
    try await withThrowingTaskGroup(of: Void.self) { group in
        for connection in connections {
            group.addTask { while try await work(connection) {} }
        }
        try await group.waitForAll()
    }
    let elapsed = seconds(clock.now - start)
    for connection in connections { await connection.close() }
    return Double(jobCount) / elapsed
}

for (run, workers) in workerCounts.enumerated() {
    let enqueueRate = try await enqueueAll(run * 2)
    let queueRate = try await drain(workers) { connection in
        let queue = JobQueue(connection: connection)
        guard let claimed = try await queue.claim(worker: "bench") else { return false }
        try await queue.complete(claimed.lease)
        return true
    }
    let succeeded = try await setup.query("SELECT count(*)::int AS count FROM jobs WHERE state = 'succeeded'")[0]
        .decode("count", as: Int.self)
    guard succeeded == jobCount else { fatalError("\(succeeded) of \(jobCount) jobs succeeded") }

    _ = try await enqueueAll(run * 2 + 1)
    let boundRate = try await drain(workers) { connection in
        let claimed = try await connection.preparedQuery("""
            UPDATE jobs SET state = 'running', lease_id = gen_random_uuid(), lease_expires_at = now() + interval '30 s'
            WHERE id = (SELECT id FROM jobs WHERE state = 'queued' ORDER BY priority DESC, run_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
            RETURNING id, lease_id
            """)
        guard let row = claimed.first else { return false }
        try await connection.preparedQuery("""
            UPDATE jobs SET state = 'succeeded', lease_id = NULL, lease_expires_at = NULL, finished_at = now()
            WHERE id = $1 AND lease_id = $2
            """, [try row.decode("id", as: Int64.self), try row.decode("lease_id", as: UUID.self)])
        return true
    }
    print(#"{"workers":\#(workers),"jobs":\#(jobCount),"enqueue_per_s":\#(Int(enqueueRate)),"queue_per_s":\#(Int(queueRate)),"bound_per_s":\#(Int(boundRate))}"#)
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
