import Foundation
import Postgres

/// What a job does with its session.
public enum JobKind: String, Sendable, Codable {
    /// Decode the video, find the landmarks, score them.
    case analyzeVideo = "analyze_video"
    /// Score a landmark track uploaded from a phone; no models run.
    case scoreTrack = "score_track"
    /// Score a session's stored track again with a stored rule version; no models run.
    case rescore
}

/// A job as the queue keeps it.
public struct Job: Sendable, Equatable, Codable {
    public var id: Int64
    public var organizationID: UUID
    public var sessionID: UUID
    public var kind: JobKind
    /// The rule version a re-scoring job scores with (`squat@3`); nil for other kinds.
    public var rulesVersion: String?
    /// The SHA-256 (hex) of the key it was enqueued with.
    public var idempotencyKey: String
    public var state: JobState
    public var priority: Int
    public var runAt: Date
    public var attempts: Int
    public var maxAttempts: Int
    public var leaseExpirations: Int
    public var leasedBy: String?
    public var heartbeatAt: Date?
    public var cancelRequested: Bool
    public var lastError: String?
    public var createdAt: Date
    public var finishedAt: Date?

    /// The columns `init(row:)` reads, qualified by the jobs table's alias `j`.
    static let columns = """
        j.id, j.organization_id, j.session_id, j.kind, j.idempotency_key, j.state, j.priority, j.run_at,
        j.attempts, j.max_attempts, j.lease_expirations, j.leased_by, j.heartbeat_at, j.cancel_requested,
        j.last_error, j.created_at, j.finished_at, j.rules_version
        """

    init(row: PostgresRow) throws {
        id = try row.decode("id")
        organizationID = try row.decode("organization_id")
        sessionID = try row.decode("session_id")
        idempotencyKey = try row.decode("idempotency_key")
        guard let kind = JobKind(rawValue: try row.decode("kind")), let state = JobState(rawValue: try row.decode("state"))
        else { throw PostgresError(.decoding, "job \(id) has an unknown kind or state") }
        self.kind = kind
        self.state = state
        priority = try row.decode("priority")
        runAt = try row.decode("run_at")
        attempts = try row.decode("attempts")
        maxAttempts = try row.decode("max_attempts")
        leaseExpirations = try row.decode("lease_expirations")
        leasedBy = try row.decode("leased_by", as: String?.self)
        heartbeatAt = try row.decode("heartbeat_at", as: Date?.self)
        cancelRequested = try row.decode("cancel_requested")
        lastError = try row.decode("last_error", as: String?.self)
        createdAt = try row.decode("created_at")
        finishedAt = try row.decode("finished_at", as: Date?.self)
        rulesVersion = try row.decode("rules_version", as: String?.self)
    }

    var lifecycle: JobLifecycle {
        JobLifecycle(
            state: state, attempts: attempts, maxAttempts: maxAttempts, leaseExpirations: leaseExpirations,
            cancelRequested: cancelRequested)
    }
}

/// A worker's hold on a running job: only the holder of `id` may finish the job,
/// and only until `expiresAt` unless it heartbeats.
public struct Lease: Sendable, Equatable {
    public var jobID: Int64
    public var id: UUID
    public var expiresAt: Date
}

/// A job a worker claimed, with what it needs to run it.
public struct ClaimedJob: Sendable {
    public var job: Job
    public var lease: Lease
    public var exercise: String
    /// A local path or an http(s) URL of the video or track.
    public var sourceURI: String
    /// Who made the session: a client's job may not read a local path.
    public var madeBy: RequestOrigin
}

/// Who asks for an analysis. A file on the workers' machines may be named only
/// by the operator; a client (the API) names http(s) URLs, so that no tenant
/// can point a job at another tenant's upload.
public enum RequestOrigin: String, Sendable, Codable {
    case `operator`, client
}

/// A request whose source its origin may not name.
public struct SourceNotAllowed: Error, Sendable, CustomStringConvertible {
    public var source: String
    public var description: String { "\(source): a client's source must be an http(s) URL, not a path on the server" }

    public init(source: String) {
        self.source = source
    }
}

/// An upload to analyse: a session and its job, made once per idempotency key.
public struct AnalysisRequest: Sendable {
    public var organizationID: UUID
    public var athleteID: UUID?
    public var exercise: String
    public var kind: JobKind
    public var sourceURI: String
    /// Repeating an upload with the same key returns the first job instead of making another.
    /// The SHA-256 (hex) of the key it was enqueued with.
    public var idempotencyKey: String
    public var priority: Int
    public var runAt: Date?
    /// Tries a job gets unless the operator says otherwise; a client's job never gets more.
    public var maxAttempts: Int
    public static let defaultMaxAttempts = 5
    /// Who asks: a client's request names http(s) sources only, at the default priority.
    public var origin: RequestOrigin

    public init(
        organizationID: UUID, athleteID: UUID? = nil, exercise: String, kind: JobKind, sourceURI: String,
        idempotencyKey: String, priority: Int = 0, runAt: Date? = nil, maxAttempts: Int = defaultMaxAttempts, origin: RequestOrigin
    ) {
        self.organizationID = organizationID
        self.athleteID = athleteID
        self.exercise = exercise
        self.kind = kind
        self.sourceURI = sourceURI
        self.idempotencyKey = idempotencyKey
        self.priority = priority
        self.runAt = runAt
        self.maxAttempts = maxAttempts
        self.origin = origin
    }
}

/// Where a job's video comes from, read from its `source_uri`.
public enum JobSource: Sendable, Equatable {
    /// An http(s) URL, which the worker downloads.
    case remote(url: String)
    /// A file on the worker's machine: a path, or a `file://` URL's path.
    case local(path: String)
    /// An upload kept by the API (`spotter-storage:sha256:HEX`), which the
    /// worker fetches from the API through a signed, expiring URL.
    case stored(sha256: String)

    /// The prefix of stored uploads' URIs.
    public static let storedPrefix = "spotter-storage:sha256:"

    /// Schemes are told apart in any case (`HTTPS://` is a URL, never a path).
    public init(uri: String) {
        let lowered = uri.prefix(Self.storedPrefix.count).lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            self = .remote(url: uri)
        } else if lowered == Self.storedPrefix {
            self = .stored(sha256: String(uri.dropFirst(Self.storedPrefix.count)))
        } else {
            self = .local(path: lowered.hasPrefix("file://") ? String(uri.dropFirst("file://".count)) : uri)
        }
    }
}
