import Contracts
import Foundation
import LandmarkTracks
import Logging
import Rules
import Store

/// Runs one claimed job to its end: analyses its session while heartbeating,
/// then stores the results with the job's completion, or records why it failed.
/// Whatever happens, the job ends in a state the queue knows what to do with.
struct JobRunner: Sendable {
    let configuration: WorkerConfiguration
    let queue: JobQueue
    let logger: Logger
    /// Wake a job's heartbeat when the queue asks its worker to stop it.
    let nudges: HeartbeatNudges

    /// Why a job's work stopped before its end.
    enum Interruption: Error {
        /// The lease expired or was taken over: another worker may have the job.
        case leaseLost
        /// Someone cancelled the job.
        case cancelRequested
    }

    func run(_ claimed: ClaimedJob) async {
        let job = claimed.job
        var logger = logger
        logger[metadataKey: "job"] = "\(job.id)"
        let directory = configuration.workDirectory + "/job-\(job.id)-\(UUID().uuidString.prefix(8))"
        defer {
            nudges.remove(job.id)
            try? FileManager.default.removeItem(atPath: directory)
        }
        logger.info("running \(job.kind.rawValue) of \(redactedSource(claimed.sourceURI)) for \(claimed.exercise)")
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let analysis = SessionJob(
                claimed: claimed, configuration: configuration, connection: queue.connection, directory: directory, logger: logger)
            let results = try await whileHeartbeating(claimed.lease) { try await analysis.run() }
            try await AnalysisStore(queue: queue).complete(
                claimed, report: results.report, track: results.track, thumbnails: results.thumbnails)
            logger.info("done: \(results.report.repCount) rep(s), \(results.report.faults.count) fault(s)")
        } catch Interruption.cancelRequested {
            logger.info("stopped: the job was cancelled")
            await record("marking the job cancelled") { try await queue.stoppedForCancellation(claimed.lease) }
        } catch Interruption.leaseLost {
            logger.warning("stopped: the lease was lost, so the job is no longer this worker's")
        } catch is CancellationError {
            logger.info("stopped by the shutdown; the job goes back to the queue")
            await record("releasing the job") { try await queue.release(claimed.lease) }
        } catch let error as JobQueueError where error.code == .leaseLost {
            logger.warning("finished, but the lease was lost meanwhile; nothing was stored")
        } catch {
            let (kind, detailed) = classify(error)
            // Tenants read the stored reason: the worker's own paths go; the source is named as they gave it.
            let reason = detailed
                .replacingOccurrences(of: directory + "/source", with: redactedSource(claimed.sourceURI))
                .replacingOccurrences(of: directory, with: "the job's scratch space")
            await record("recording the failure") {
                let state = try await queue.fail(claimed.lease, kind, reason: reason)
                logger.warning("failed (\(kind.rawValue), now \(state.rawValue)): \(describeFailureForOperator(error))")
            }
        }
    }

    /// Runs `work` while extending the lease every heartbeat interval; stops the
    /// work when the lease is lost or the job is cancelled.
    private func whileHeartbeating<T: Sendable>(
        _ lease: Lease, _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await work() }
            group.addTask { [configuration, queue, logger, nudges] in
                var lease = lease
                while true {
                    try await nudges.wait(lease.jobID, upTo: configuration.heartbeatInterval)
                    do {
                        switch try await queue.heartbeat(lease) {
                        case .held(_, cancelRequested: true): throw Interruption.cancelRequested
                        case .held(let extended, cancelRequested: false): lease = extended
                        case .lost: throw Interruption.leaseLost
                        }
                    } catch let error as Interruption {
                        throw error
                    } catch {
                        // The database may be back before the lease runs out.
                        logger.warning("heartbeat failed: \(describeFailureForOperator(error))")
                    }
                }
            }
            defer { group.cancelAll() }
            guard case let value?? = try await group.next() else { throw CancellationError() }
            return value
        }
    }

    private func record(_ what: String, _ body: () async throws -> Void) async {
        do { try await body() } catch { logger.error("\(what) failed: \(describeFailureForOperator(error))") }
    }
}

/// Whether a failure is worth another try, and the reason stored with the job.
func classify(_ error: any Error) -> (JobFailureKind, String) {
    if let failure = error as? AnalysisChildFailure { return (failure.kind, failure.reason) }
    let (kind, message) = describeFailure(error)
    switch kind {
    case .badInput, .usage: return (.permanent, message)
    case .unavailable, .cannotCreate, .internalError: return (.retryable, message)
    }
}
