import Contracts
import Foundation
import LandmarkTracks
import Logging
import Postgres
import Rules
import Storage
import Store
import Transfer

/// The work of one job: fetch the session's video or track, find the landmarks
/// in a child process (so that a decoder crash or hang fails this job only),
/// and score them with the exercise's rules.
struct SessionJob: Sendable {
    let claimed: ClaimedJob
    let configuration: WorkerConfiguration
    /// Where the rule text it scores with is recorded.
    let connection: any PostgresClient
    /// This job's own scratch directory.
    let directory: String
    let logger: Logger

    /// What a job leaves to store: the report, the track, and a picture of
    /// each rep's turn (JPEG, in rep order) where a video was analysed.
    struct Results {
        var report: SessionReport
        var track: LandmarkTrack
        var thumbnails: [Data] = []
    }

    func run() async throws -> Results {
        if claimed.job.kind == .rescore { return try await rescore() }
        let rule = try await currentRule()
        let input = try await fetchSource()
        var (track, warnings) = claimed.job.kind == .analyzeVideo
            ? try await findLandmarks(in: input, hands: rule.usesHands)
            : (try LandmarkTrack(contentsOfFile: input, maxBytes: configuration.maxTrackBytes), [String]())
        track.header.source = redactedSource(claimed.sourceURI)
        var report = Scorer(rule: rule).score(track).report
        report.warnings = warnings + report.warnings
        var results = Results(report: report, track: track)
        if claimed.job.kind == .analyzeVideo, !report.reps.isEmpty {
            results.thumbnails = await thumbnails(of: input, at: report.reps.map(\.bottomMilliseconds))
        }
        return results
    }

    /// The session's stored track scored with the job's rule version: no
    /// source fetched, no child process, no model.
    private func rescore() async throws -> Results {
        let rule = try await RuleVersions.rule(rulesVersion: claimed.job.rulesVersion ?? "", on: connection)
        guard let track = try await AnalysisStore(queue: JobQueue(connection: connection)).track(sessionID: claimed.job.sessionID, .allOrganizations)
        else { throw RescoreFailure(reason: "the session has no stored landmark track to score again") }
        return Results(report: Scorer(rule: rule).score(track).report, track: track)
    }

    /// A picture of the video at each of `times`, with the skeleton, made by
    /// `spotter thumbnails` in a child process under the analysis's limits;
    /// none when that fails (the report stands without them, and the log says why).
    private func thumbnails(of video: String, at times: [Int]) async -> [Data] {
        let pictures = directory + "/thumbnails"
        do {
            try FileManager.default.createDirectory(atPath: pictures, withIntermediateDirectories: true)
            let arguments = CommandContract.thumbnailsArguments(
                video: video, trackPath: trackPath, times: times, directory: pictures)
            let outcome = try await analysisChild(arguments).run { [logger] line in logger.debug("thumbnails: \(line)") }
            guard outcome.succeeded else { throw AnalysisChildFailure(outcome: outcome) }
            return try (1...times.count).map { try Data(contentsOf: URL(fileURLWithPath: "\(pictures)/\($0).jpg")) }
        } catch {
            logger.warning("no pictures of the reps: \(error)")
            return []
        }
    }

    /// A `spotter` child process with `arguments`, the analysis's environment and limits.
    private func analysisChild(_ arguments: [String]) -> ChildProcess {
        var environment = ChildProcess.inheriting(CommandContract.childEnvironment)
        environment[CommandContract.exitWithParentVariable] = String(getpid())
        environment[CommandContract.noNetworkVariable] = "1"
        var child = ChildProcess(
            executable: configuration.executable, arguments: arguments, environment: environment,
            timeLimit: configuration.analysisTimeLimit)
        child.memoryLimit = configuration.analysisMemoryLimit
        return child
    }

    /// The exercise's current published rule where an admin published one;
    /// else the rules directory's file, its text recorded: the report's
    /// rules_version must name the very text it was scored with.
    private func currentRule() async throws -> ExerciseRule {
        if let published = try await RuleVersions.current(exercise: claimed.exercise, on: connection) { return published }
        let rule = try RuleBook.rule(for: claimed.exercise, in: configuration.rulesDirectory)
        try await RuleVersions.record(rule, on: connection)
        return rule
    }

    /// The source as a local file: a path as it is, an http(s) URL downloaded
    /// within the configured limits and address policy, an upload fetched from
    /// the API through a URL signed for a few minutes.
    private func fetchSource() async throws -> String {
        switch JobSource(uri: claimed.sourceURI) {
        case .local(let path):
            // Refused at enqueueing too; read here only from a session the operator made.
            guard claimed.madeBy == .operator else { throw SourceNotAllowed(source: claimed.sourceURI) }
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw JobSourceError(path: path)
            }
            return path
        case .remote(let url):
            let path = directory + "/source"
            let result = try await HTTPTransfer(addressPolicy: configuration.addressPolicy)
                .download(from: url, to: path, limits: configuration.downloadLimits)
            logger.info("fetched \(result.bytes) bytes from \(redactedSource(url))")
            return path
        case .stored(let sha256):
            guard let access = configuration.uploads, let digest = ContentDigest(hex: sha256) else {
                throw UploadsUnreachable()
            }
            let expires = Date().addingTimeInterval(Double(access.lifetime.components.seconds))
            let path = directory + "/source"
            // The operator's own API, wherever it is: not a client's URL.
            let result = try await HTTPTransfer(addressPolicy: .allowingPrivateNetworks).download(
                from: access.apiURL + access.signing.path(for: digest, expires: expires), to: path, limits: configuration.downloadLimits)
            logger.info("fetched \(result.bytes) bytes of upload \(digest.hex.prefix(12))")
            return path
        }
    }

    /// Where the analysis child writes the video's track.
    private var trackPath: String { directory + "/track.jsonl" }

    /// Runs `spotter landmarks` on the video in a child process with time and memory limits.
    private func findLandmarks(in video: String, hands: Bool) async throws -> (LandmarkTrack, [String]) {
        let warningsPath = directory + "/warnings.json"
        let arguments = CommandContract.landmarksArguments(
            video: video, trackPath: trackPath, warningsPath: warningsPath, maxFrameRate: CommandContract.maxFrameRate, hands: hands,
            delegate: configuration.delegate, threads: configuration.analysisThreads)
        let outcome = try await analysisChild(arguments).run { [logger] line in logger.debug("analysis: \(line)") }
        guard outcome.succeeded else { throw AnalysisChildFailure(outcome: outcome) }
        logger.info("found the landmarks in \(outcome.wallTime)")
        let warnings = try JSONDecoder().decode([String].self, from: Data(contentsOf: URL(fileURLWithPath: warningsPath)))
        return (try LandmarkTrack(contentsOfFile: trackPath), warnings)
    }
}

/// The analysis child process did not succeed: why, and whether to try again.
struct AnalysisChildFailure: Error, CustomStringConvertible {
    var kind: JobFailureKind
    var reason: String

    init(outcome: ChildProcessOutcome) {
        reason = outcome.failureReason() ?? "the analysis failed"
        kind = switch outcome.termination {
        // Bad or unsupported input, bad usage: the same again next time.
        case .exited(let status) where CommandContract.isPermanent(exitStatus: status): .permanent
        case .exited: .retryable
        // A decoder that crashed or hung on this input will do so again; a
        // SIGKILL from outside (the kernel's out-of-memory killer) may not.
        case .signalled(let signal) where signal.isCrash: .permanent
        case .signalled: .retryable
        case .timedOut, .memoryExceeded: .permanent
        }
    }

    var description: String { reason }
}

/// A source URI fit for logs and reports: no user name, password or query, and
/// no control character (a path's are escaped, so that a name cannot forge log lines).
func redactedSource(_ uri: String) -> String {
    guard case .remote(let url) = JobSource(uri: uri) else {
        return uri.unicodeScalars.map { $0.properties.generalCategory == .control ? $0.escaped(asASCII: true) : String($0) }.joined()
    }
    return redactedURL(url)
}

/// A re-scoring job that cannot be done: the same again next time.
struct RescoreFailure: DescribedFailure, CustomStringConvertible {
    var reason: String
    var failureKind: FailureKind { .badInput }
    var safeMessage: String { reason }
    var description: String { reason }
}

/// An upload's job on a worker that cannot fetch uploads.
struct UploadsUnreachable: DescribedFailure, CustomStringConvertible {
    var failureKind: FailureKind { .unavailable }
    var safeMessage: String {
        "this worker cannot fetch uploaded videos: set SPOTTER_API_URL (the API's address) and SPOTTER_STORAGE_KEY (the API's)"
    }
    var description: String { safeMessage }
}

/// A job's local source that is not there (or cannot be read).
struct JobSourceError: DescribedFailure, CustomStringConvertible {
    var path: String
    var failureKind: FailureKind { .badInput }
    var safeMessage: String { "\(path): no such readable file" }
    var description: String { safeMessage }
}
