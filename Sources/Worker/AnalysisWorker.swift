import Contracts
import Foundation
import Logging
import Postgres
import ServiceLifecycle
import Store
import Synchronization

/// A worker process's service: claims jobs from the shared queue, up to
/// `concurrency` at once, and runs them.
///
/// Wakes on the queue's NOTIFY channel, and looks anyway every poll interval in
/// case a notification was missed. A cancellation of one of its running jobs
/// (`JobQueue.cancelChannel`) wakes that job's heartbeat, which stops it. Every heartbeat interval it also returns
/// the jobs of workers that vanished to the queue, and now and then deletes
/// old finished jobs. On graceful shutdown (SIGTERM) it stops claiming, lets
/// running jobs finish within the grace period, then stops them and gives
/// their jobs back to the queue.
public struct AnalysisWorker: Service {
    public let configuration: WorkerConfiguration
    let logger: Logger

    public init(configuration: WorkerConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    public func run() async throws {
        do {
            try ScratchDirectory.prepare(configuration.workDirectory)
        } catch {
            logger.critical("\(describeFailureForOperator(error))")
            throw error
        }
        guard let connection = await connect(), let listener = await connect() else { return }
        try await listener.listen(JobQueue.channel)
        try await listener.listen(JobQueue.cancelChannel)
        var queue = JobQueue(connection: connection, leaseDuration: configuration.leaseDuration)
        queue.retryPolicy = configuration.retryPolicy
        let nudges = HeartbeatNudges()
        let runner = JobRunner(configuration: configuration, queue: queue, logger: logger, nudges: nudges)
        let running = RunningJobs()
        var maintenance = Maintenance(queue: queue, configuration: configuration, logger: logger)
        logger.info("worker \(configuration.name) started, \(configuration.concurrency) job(s) at once")
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            await maintenance.runIfDue()
            if running.count < configuration.concurrency {
                do {
                    if let claimed = try await queue.claim(worker: configuration.name) {
                        running.start(claimed.lease) { await runner.run(claimed) }
                        continue
                    }
                } catch {
                    logger.error("claiming a job failed: \(describeFailureForOperator(error))")
                }
            }
            do {
                // With every slot taken, look again soon: a job that ends frees one without a notification
                // (a local poll of the listener's socket, no query), so short jobs follow each other at once.
                let full = running.count >= configuration.concurrency
                let notification = try await listener.nextNotification(timeout: full ? .milliseconds(10) : configuration.pollInterval)
                if let notification, notification.channel == JobQueue.cancelChannel, let id = Int64(notification.payload),
                   running.contains(job: id) {
                    nudges.nudge(id)
                }
            } catch {
                logger.warning("waiting for jobs failed: \(describeFailureForOperator(error))")
                try? await Task.sleep(for: configuration.pollInterval)
            }
        }
        logger.info("shutting down: waiting up to \(configuration.shutdownGrace) for \(running.count) running job(s)")
        await running.finish(within: configuration.shutdownGrace)
        await connection.close()
        await listener.close()
        logger.info("worker \(configuration.name) stopped")
    }

    /// Connects, trying again every few seconds while the database is
    /// unreachable; nil when shutdown came first.
    private func connect() async -> PostgresConnection? {
        var delay = Duration.milliseconds(250)
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                return try await PostgresConnection.connect(to: configuration.databaseURL)
            } catch {
                logger.error("cannot reach the database, trying again in \(delay): \(describeFailureForOperator(error))")
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(5))
            }
        }
        return nil
    }
}

/// The jobs a worker is running, each in its own task, known by lease: after a
/// lease ran out, this worker may claim the same job again while the old run is
/// still ending, and both count against its concurrency until they end.
final class RunningJobs: Sendable {
    private let tasks = Mutex<[UUID: (jobID: Int64, task: Task<Void, Never>)]>([:])

    var count: Int { tasks.withLock { $0.count } }

    func contains(job id: Int64) -> Bool { tasks.withLock { $0.values.contains { $0.jobID == id } } }

    func start(_ lease: Lease, _ body: @escaping @Sendable () async -> Void) {
        tasks.withLock { tasks in
            tasks[lease.id] = (lease.jobID, Task {
                await body()
                self.tasks.withLock { _ = $0.removeValue(forKey: lease.id) }
            })
        }
    }

    /// Waits for the running jobs to end, for at most `grace`; then cancels the
    /// rest (they give their jobs back) and waits for that.
    func finish(within grace: Duration) async {
        let deadline = ContinuousClock.now + grace
        while count > 0 && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(100))
        }
        let remaining = tasks.withLock { $0.values.map(\.task) }
        for task in remaining { task.cancel() }
        for task in remaining { await task.value }
    }
}

/// The queue's upkeep, shared by all workers: requeueing the jobs of vanished
/// workers every heartbeat interval, deleting old finished jobs every hour.
struct Maintenance {
    let queue: JobQueue
    let configuration: WorkerConfiguration
    let logger: Logger
    private var lastReap: ContinuousClock.Instant?
    private var lastCleanup: ContinuousClock.Instant?

    init(queue: JobQueue, configuration: WorkerConfiguration, logger: Logger) {
        self.queue = queue
        self.configuration = configuration
        self.logger = logger
    }

    mutating func runIfDue() async {
        let now = ContinuousClock.now
        if lastReap.map({ now - $0 >= configuration.heartbeatInterval }) ?? true {
            lastReap = now
            do {
                let requeued = try await queue.reapExpiredLeases()
                if !requeued.isEmpty { logger.warning("took back jobs whose worker stopped heartbeating: \(requeued)") }
            } catch {
                logger.error("taking back expired leases failed: \(describeFailureForOperator(error))")
            }
        }
        if lastCleanup.map({ now - $0 >= .seconds(3600) }) ?? true {
            lastCleanup = now
            do {
                let deleted = try await queue.deleteFinished(olderThan: configuration.jobRetention)
                if deleted > 0 { logger.info("deleted \(deleted) finished job(s) past retention") }
            } catch {
                logger.error("deleting old finished jobs failed: \(describeFailureForOperator(error))")
            }
        }
    }
}
