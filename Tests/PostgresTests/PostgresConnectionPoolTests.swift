import Foundation
import Postgres
import Synchronization
import Testing
import TestSupport

@Suite("A bounded pool of connections", .postgresDatabase)
struct PostgresConnectionPoolTests {
    /// The most bodies that ran at once.
    final class Overlap: Sendable {
        private let counts = Mutex((now: 0, most: 0))
        var most: Int { counts.withLock { $0.most } }

        func enter() { counts.withLock { $0.now += 1; $0.most = max($0.most, $0.now) } }
        func leave() { counts.withLock { $0.now -= 1 } }
    }

    @Test("concurrent callers share at most `size` connections, and run side by side")
    func concurrency() async throws {
        // The wait limit is not under test here: a loaded CI machine has kept callers waiting over 30 s.
        let pool = PostgresConnectionPool(url: PostgresDatabase.url, size: 3, waitLimit: .seconds(600))
        let overlap = Overlap()
        let backends = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    try await pool.withConnection { connection in
                        overlap.enter()
                        defer { overlap.leave() }
                        return try await connection.query("SELECT pg_backend_pid() AS pid, pg_sleep(0.1)")[0].decode("pid", as: Int.self)
                    }
                }
            }
            return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
        }
        #expect(backends.count <= 3, "12 calls on at most 3 server connections: \(backends)")
        #expect((2...3).contains(overlap.most), "the calls ran side by side, never more than three: \(overlap.most)")
        let usage = await pool.usage
        #expect(usage.lent == 0 && usage.idle == backends.count, "every connection came back")
        await pool.close()
    }

    @Test("a connection is given back when its body throws, and a broken one is replaced")
    func givenBackAndReplaced() async throws {
        let pool = PostgresConnectionPool(url: PostgresDatabase.url, size: 1, waitLimit: .seconds(5))
        await #expect(throws: PostgresError.self) {
            try await pool.withConnection { try await $0.query("SELEC 1") }
        }
        let first = try await pool.withConnection { try await $0.query("SELECT pg_backend_pid() AS pid")[0].decode("pid", as: Int.self) }
        // The server ends this connection's backend under it.
        await #expect(throws: PostgresError.self) {
            try await pool.withConnection { try await $0.query("SELECT pg_terminate_backend(pg_backend_pid())") }
        }
        let second = try await pool.withConnection { try await $0.query("SELECT pg_backend_pid() AS pid")[0].decode("pid", as: Int.self) }
        #expect(first != second, "a fresh connection took the broken one's place")
        let usage = await pool.usage
        #expect(usage.lent == 0 && usage.idle == 1)
        await pool.close()
    }

    @Test("when every connection stays lent, a caller waits at most the wait limit, then fails as busy")
    func waitLimit() async throws {
        let pool = PostgresConnectionPool(url: PostgresDatabase.url, size: 1, waitLimit: .milliseconds(200))
        let holder = Task { try await pool.withConnection { try await $0.query("SELECT pg_sleep(5)") } }
        while await pool.usage.lent == 0 { try await Task.sleep(for: .milliseconds(10)) }  // the holder has the only connection
        let error = await #expect(throws: PostgresError.self) {
            try await pool.withConnection { try await $0.query("SELECT 1") }
        }
        #expect(error?.code == .busy && error?.isTransient == true)
        _ = try await holder.value
        #expect(try await pool.withConnection { try await $0.query("SELECT 1 AS one")[0].decode("one", as: Int.self) } == 1)
        await pool.close()
    }
}
