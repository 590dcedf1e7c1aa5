import Foundation
import Postgres

/// What an operator's dashboard reads from the database, across every
/// organization (counts only, nothing of any tenant's): jobs by state, the
/// oldest queued job's age, webhook deliveries by state.
public struct QueueStatistics: Sendable, Equatable {
    public var jobs: [JobState: Int]
    /// Seconds since the oldest queued job was made; 0 when none is queued.
    public var oldestQueuedSeconds: Double
    /// By `webhook_deliveries.state`: pending, delivering, delivered, dead, cancelled.
    public var deliveries: [String: Int]

    public static let deliveryStates = ["pending", "delivering", "delivered", "dead", "cancelled"]

    /// Reads them now.
    public static func read(on connection: any PostgresClient) async throws -> QueueStatistics {
        var jobs = Dictionary(uniqueKeysWithValues: JobState.allCases.map { ($0, 0) })
        for row in try await connection.query("SELECT state, count(*)::int AS count FROM jobs GROUP BY state") {
            if let state = JobState(rawValue: try row.decode("state")) { jobs[state] = try row.decode("count") }
        }
        let oldest = try await connection.query(
            "SELECT coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS age FROM jobs WHERE state = 'queued'")
        var deliveries = Dictionary(uniqueKeysWithValues: deliveryStates.map { ($0, 0) })
        for row in try await connection.query("SELECT state, count(*)::int AS count FROM webhook_deliveries GROUP BY state") {
            deliveries[try row.decode("state")] = try row.decode("count")
        }
        return QueueStatistics(jobs: jobs, oldestQueuedSeconds: try oldest[0].decode("age"), deliveries: deliveries)
    }
}
