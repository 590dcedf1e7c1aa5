import ArgumentParser
import Foundation
import Postgres
import Store

extension Spotter {
    /// The job queue, for operators: what is queued, running and failed, and why.
    struct JobsCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "jobs",
            abstract: "Inspect and steer the analysis job queue.",
            subcommands: [List.self, Show.self, Enqueue.self, Retry.self, Cancel.self])
    }
}

extension Spotter.JobsCommand {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List jobs, newest first.")

        @Option(help: "Only jobs in this state (queued, running, succeeded, failed, dead, cancelled).")
        var state: JobState?

        @Option(help: "At most this many jobs.")
        var limit = 50

        @Flag(help: "Print the jobs as a JSON array.")
        var json = false

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let queue = JobQueue(connection: try await database.connect())
            let jobs: [Job]
            do { jobs = try await queue.list(.allOrganizations, state: state, limit: limit) } catch { throw commandFailure(error) }
            if json { return try printJSON(jobs) }
            let rows = jobs.map { job in
                [String(job.id), job.state.rawValue, job.kind.rawValue, "\(job.attempts)/\(job.maxAttempts)",
                 String(job.priority), timestamp(job.createdAt), job.lastError ?? ""]
            }
            print(table([["id", "state", "kind", "attempts", "priority", "created", "last error"]] + rows), terminator: "")
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show one job.")

        @Argument(help: "The job's id.")
        var id: Int64

        @Flag(help: "Print the job as JSON.")
        var json = false

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let queue = JobQueue(connection: try await database.connect())
            let found: Job?
            do { found = try await queue.job(id, .allOrganizations) } catch { throw commandFailure(error) }
            guard let job = found else { throw commandFailure(.usage, "there is no job \(id)") }
            if json { return try printJSON(job) }
            describe(job)
        }
    }

    struct Enqueue: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Queue the analysis of a video, or the scoring of a landmark track.",
            discussion: """
                SOURCE is a local file or an http(s) URL. Enqueueing the same source again \
                returns the first job (the idempotency key defaults to the source, its size \
                and modification time, and the exercise).
                """)

        @Argument(help: "The video (or, with --landmarks, the track): a path or an http(s) URL.")
        var source: String

        @Option(help: "The exercise (see `spotter rules list`).")
        var exercise: String

        @Flag(help: "SOURCE is a spotter.landmarks/v1 track: score it without running any model.")
        var landmarks = false

        @Option(help: "The organization's id (default: the only organization; one is made when there is none).")
        var organization: UUID?

        @Option(help: "Repeated enqueues with the same key make one job.")
        var idempotencyKey: String?

        @Option(help: "Higher runs first.")
        var priority = 0

        @Option(help: "Runs that may fail before the job is dead.")
        var maxAttempts = 5

        @Option(help: ArgumentHelp("Not before this time (ISO 8601, such as 2026-12-01T06:00:00Z).", valueName: "time"))
        var runAt: String?

        func validate() throws {
            guard maxAttempts >= 1 else { throw ValidationError("--max-attempts must be at least 1") }
            if let runAt, (try? Date(runAt, strategy: .iso8601)) == nil {
                throw ValidationError("--run-at \(runAt) is not an ISO 8601 time such as 2026-12-01T06:00:00Z")
            }
        }

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let sourceURI = try resolvedSource()
            let connection = try await database.connect()
            do {
                let organizationID = try await resolvedOrganization(organization, connection)
                let request = AnalysisRequest(
                    organizationID: organizationID, exercise: exercise, kind: landmarks ? .scoreTrack : .analyzeVideo,
                    sourceURI: sourceURI, idempotencyKey: idempotencyKey ?? defaultKey(sourceURI),
                    priority: priority, runAt: try runAt.map { try Date($0, strategy: .iso8601) }, maxAttempts: maxAttempts,
                    origin: .operator)
                let (job, created) = try await JobQueue(connection: connection).enqueue(request)
                FileHandle.standardError.write(Data((created ? "queued job \(job.id)\n" : "job \(job.id) already exists (\(job.state.rawValue))\n").utf8))
                print(job.id)
            } catch {
                throw commandFailure(error)
            }
        }

        private func resolvedSource() throws -> String {
            switch JobSource(uri: source) {
            case .remote, .stored: return source
            case .local: break
            }
            let path = URL(fileURLWithPath: source).standardizedFileURL.path
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw commandFailure(.badInput, "\(source): no such readable file")
            }
            return path
        }

        private func defaultKey(_ sourceURI: String) -> String {
            let attributes = try? FileManager.default.attributesOfItem(atPath: sourceURI)
            let size = (attributes?[.size] as? NSNumber)?.int64Value
            let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970
            return [exercise, sourceURI, size.map(String.init), modified.map { String($0) }].compactMap { $0 }.joined(separator: "|")
        }

    }

    struct Retry: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Queue a failed, dead or cancelled job again, with fresh attempts.")

        @Argument(help: "The job's id.")
        var id: Int64

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let queue = JobQueue(connection: try await database.connect())
            do { describe(try await queue.retry(id, .allOrganizations)) } catch { throw commandFailure(error) }
        }
    }

    struct Cancel: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Cancel a queued job, or ask a running job's worker to stop it.")

        @Argument(help: "The job's id.")
        var id: Int64

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let queue = JobQueue(connection: try await database.connect())
            do { describe(try await queue.cancel(id, .allOrganizations)) } catch { throw commandFailure(error) }
        }
    }
}

extension JobState: ExpressibleByArgument {}

private func describe(_ job: Job) {
    let lines: [(String, String?)] = [
        ("job", String(job.id)), ("state", job.state.rawValue + (job.cancelRequested && job.state == .running ? " (cancel requested)" : "")),
        ("kind", job.kind.rawValue), ("rules version", job.rulesVersion), ("session", job.sessionID.uuidString.lowercased()),
        ("organization", job.organizationID.uuidString.lowercased()),
        ("attempts", "\(job.attempts) of \(job.maxAttempts)"), ("lost leases", String(job.leaseExpirations)),
        ("priority", String(job.priority)), ("run at", timestamp(job.runAt)),
        ("worker", job.leasedBy), ("heartbeat", job.heartbeatAt.map(timestamp)),
        ("created", timestamp(job.createdAt)), ("finished", job.finishedAt.map(timestamp)),
        ("last error", job.lastError), ("idempotency key", job.idempotencyKey),
    ]
    for case let (name, value?) in lines { print("\(name):".padding(toLength: 17, withPad: " ", startingAt: 0) + value) }
}


extension UUID: @retroactive ExpressibleByArgument {
    public init?(argument: String) { self.init(uuidString: argument) }
}
