import Foundation
import LandmarkTracks
import Postgres
import Rules
import Store
import SyntheticMotion
import TestSupport

/// The repository's migrations, and databases brought up to date with them.
enum StoreFixtures {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let migrationsDirectory = repository.appendingPathComponent("Migrations").path

    /// A queue on a migrated database, with an organization to enqueue for.
    static func queue(leaseDuration: Duration = .seconds(30)) async throws -> (JobQueue, Organization) {
        let connection = try await migratedDatabase()
        let organization = try await Organization.create(name: "Test gym", on: connection)
        return (JobQueue(connection: connection, leaseDuration: leaseDuration), organization)
    }

    static func request(_ organization: Organization, key: String, priority: Int = 0, runAt: Date? = nil, maxAttempts: Int = 3) -> AnalysisRequest {
        AnalysisRequest(
            organizationID: organization.id, exercise: "squat", kind: .analyzeVideo, sourceURI: "/videos/\(key).mp4",
            idempotencyKey: key, priority: priority, runAt: runAt, maxAttempts: maxAttempts, origin: .operator)
    }

    /// A synthetic squat set of `reps` reps, and the repository's squat rule to score it.
    static func squats(reps: Int, seed: UInt64) throws -> (track: LandmarkTrack, rule: ExerciseRule) {
        var conditions = SetConditions()
        conditions.reps = reps
        let track = SyntheticSessions.make("squat", conditions, seed: seed).track
        return (track, try RuleBook.rule(for: "squat", in: repository.appendingPathComponent("Rules").path))
    }

    /// A number from a one-row, one-column query.
    static func count(_ connection: any PostgresClient, _ sql: String, _ parameters: [any PostgresEncodable] = []) async throws -> Int {
        try await connection.query(sql, parameters)[0].decode("count", as: Int.self)
    }
}
