import Foundation
import Synchronization
import Testing

@testable import Store
@testable import Worker

@Suite("The jobs a worker is running")
struct RunningJobsTests {
    @Test("a job claimed again under a new lease while its old run ends is two runs, both counted and both awaited")
    func reclaimedJob() async throws {
        let running = RunningJobs()
        let release = AsyncStream<Void>.makeStream()
        let ended = Mutex(0)
        let old = Lease(jobID: 7, id: UUID(), expiresAt: .now)
        let new = Lease(jobID: 7, id: UUID(), expiresAt: .now)
        for lease in [old, new] {
            running.start(lease) {
                for await _ in release.stream { break }
                ended.withLock { $0 += 1 }
            }
        }
        #expect(running.count == 2, "the second claim did not replace the first run")
        #expect(running.contains(job: 7) && !running.contains(job: 8))
        release.continuation.yield()
        release.continuation.finish()
        await running.finish(within: .seconds(10))
        #expect(ended.withLock { $0 } == 2 && running.count == 0)
    }
}
