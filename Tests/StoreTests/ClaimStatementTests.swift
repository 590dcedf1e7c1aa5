import Foundation
import Postgres
@testable import Store
import Testing
import TestSupport

@Suite("The claim's two statements")
struct ClaimStatementTests {
    @Test("the first takes the most urgent job only when it is the fair one; the walk takes the fair one otherwise", .postgresDatabase)
    func headOnlyWhenFair() async throws {
        let (queue, flooding) = try await StoreFixtures.queue()
        let other = try await Organization.create(name: "Small gym", on: queue.connection)
        for index in 0..<2 {
            _ = try await queue.enqueue(StoreFixtures.request(flooding, key: "flood-\(index)", priority: 10))
        }
        _ = try await queue.enqueue(StoreFixtures.request(other, key: "one", priority: 0))
        let parameters: [any PostgresEncodable] = [JobState.running.rawValue, false, "w", Int64(30_000)]
        let head = try await queue.connection.preparedQuery(JobQueue.claimingHead, parameters)
        #expect(try head.first?.decode("organization_id", as: UUID.self) == flooding.id, "nothing runs anywhere: the head is fair")
        let unfair = try await queue.connection.preparedQuery(JobQueue.claimingHead, parameters)
        #expect(unfair.isEmpty, "the flooding tenant runs a job and the other none: the head is not the fair one")
        #expect(try await StoreFixtures.count(queue.connection, "SELECT count(*)::int AS count FROM jobs WHERE state = 'queued'") == 2)
        let walked = try await queue.connection.preparedQuery(JobQueue.claimingFairest, parameters)
        #expect(try walked.first?.decode("organization_id", as: UUID.self) == other.id)
    }
}
