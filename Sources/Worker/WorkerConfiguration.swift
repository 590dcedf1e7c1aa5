import Foundation
import Storage
import Store
import Transfer

/// How a worker process runs: where things are, how many jobs at once, and its
/// time limits.
public struct WorkerConfiguration: Sendable {
    /// A libpq connection string or URI.
    public var databaseURL: String
    /// The name leases are taken under, `host:pid` by default.
    public var name: String
    /// Jobs run at once.
    public var concurrency: Int
    public var rulesDirectory: String
    /// The `spotter` executable the analysis child processes run.
    public var executable: String
    /// Where downloads and tracks go while a job runs; each job's files are removed
    /// after it. Made 0700 when missing; one that exists must be this user's and closed to others.
    public var workDirectory: String
    /// The longest one video's analysis may take before its child process is killed.
    public var analysisTimeLimit: Duration
    /// The most resident memory (bytes) one video's analysis child may use
    /// before it is killed and the job failed: 4 GiB, several times what a
    /// 1280-pixel video with hands needs.
    public var analysisMemoryLimit = 4 << 30
    /// Where the analysis child runs the models (`spotter landmarks --delegate`): `cpu` or `gpu`.
    public var delegate = "cpu"
    /// How many parts of one video its analysis child landmarks at once
    /// (`spotter landmarks --threads`): the cores shared among the jobs run at
    /// once, so that one busy video uses every core and several share them
    /// without asking for more threads than there are cores.
    public var analysisThreads: Int {
        max(1, ProcessInfo.processInfo.activeProcessorCount / max(1, concurrency))
    }
    /// After SIGTERM, how long running jobs may take to finish before their leases are released.
    public var shutdownGrace: Duration
    public var heartbeatInterval: Duration
    public var leaseDuration: Duration
    /// The longest a worker waits for a wake-up before looking for jobs anyway.
    public var pollInterval: Duration
    public var retryPolicy: RetryPolicy
    /// Finished jobs older than this are deleted.
    public var jobRetention: Duration
    public var downloadLimits: DownloadLimits
    /// The largest landmark track a job may score (256 MiB: about an hour of
    /// 30 frames/s with hands); a bigger one fails its job before it is read.
    public var maxTrackBytes = 256 << 20
    /// Which addresses video URLs may point at; public ones only unless a developer allows more.
    public var addressPolicy: AddressPolicy
    /// How this worker fetches the uploads the API keeps; nil: their jobs fail, saying what to set.
    public var uploads: UploadAccess?

    /// The API that keeps uploads, and the key its fetch URLs are signed with.
    public struct UploadAccess: Sendable {
        /// The API's base URL as this worker reaches it (`SPOTTER_API_URL`): the
        /// operator's own server, so it may be on a private or loopback address.
        public var apiURL: String
        public var signing: StorageSigning
        /// How long a fetch URL is good for.
        public var lifetime: Duration = .seconds(600)

        public init(apiURL: String, signing: StorageSigning) {
            self.apiURL = apiURL.hasSuffix("/") ? String(apiURL.dropLast()) : apiURL
            self.signing = signing
        }
    }

    public init(
        databaseURL: String, rulesDirectory: String, executable: String,
        workDirectory: String = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-worker").path,
        concurrency: Int = 1
    ) {
        self.databaseURL = databaseURL
        self.name = "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier)"
        self.concurrency = concurrency
        self.rulesDirectory = rulesDirectory
        self.executable = executable
        self.workDirectory = workDirectory
        self.analysisTimeLimit = .seconds(15 * 60)
        self.shutdownGrace = .seconds(30)
        self.heartbeatInterval = .seconds(10)
        self.leaseDuration = .seconds(30)
        self.pollInterval = .seconds(1)
        self.retryPolicy = RetryPolicy()
        self.jobRetention = .seconds(30 * 24 * 3600)
        self.downloadLimits = DownloadLimits(maxBytes: 2 << 30)
        self.addressPolicy = .publicOnly
    }
}
