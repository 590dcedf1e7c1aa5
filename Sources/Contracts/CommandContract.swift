/// What `spotter` promises the processes that run it — the worker's analysis
/// child above all — kept in one place that both sides use: the exit status of
/// each kind of failure (contracts §1), the prefix of the one error line, and
/// the `spotter landmarks` command line the worker runs.
public enum CommandContract {
    /// The most frames a second an analysis landmarks: reps need no more, and a
    /// 60 frames/s phone video is then analysed as fast as a 30 frames/s one.
    public static let maxFrameRate = 30.0

    /// The start of the one line a failed command writes on standard error.
    public static let errorPrefix = "spotter: error: "

    /// The exit status a command ends with on a failure of `kind` (sysexits).
    public static func exitStatus(of kind: FailureKind) -> Int32 {
        switch kind {
        case .usage: 64
        case .badInput: 65
        case .unavailable: 69
        case .internalError: 70
        case .cannotCreate: 73
        }
    }

    /// Whether a command that exited with `status` failed for want of a good
    /// request or input: running it again gives the same failure.
    public static func isPermanent(exitStatus status: Int32) -> Bool {
        status == exitStatus(of: .usage) || status == exitStatus(of: .badInput)
    }

    /// The only variables the analysis child is given (`spotter landmarks` needs
    /// no more): where the engine and models are, the log level, and the basics
    /// of a process. Nothing else — the database URL above all — reaches the
    /// code that parses uploads.
    public static let childEnvironment = [
        "PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "XDG_CACHE_HOME",
        "SPOTTER_CACHE_DIR", "SPOTTER_MEDIAPIPE_LIBRARY", "SPOTTER_MODEL_DIR", "SPOTTER_LOG_LEVEL",
    ]

    /// Set in the analysis child's environment to the worker's pid: the child
    /// watches the worker and ends when it does, so that a crashed worker leaves
    /// no analysis running.
    public static let exitWithParentVariable = "SPOTTER_EXIT_WITH_PARENT"

    /// Set to `1` in the analysis child's environment: the child leaves the
    /// network as it starts (a namespace of its own, no interface up), so that
    /// a decoder exploit can reach no other machine.
    public static let noNetworkVariable = "SPOTTER_NO_NETWORK"

    /// The arguments of `spotter landmarks` that write the track of `video` to
    /// `trackPath` and the decoder's warnings (a JSON array of strings) to
    /// `warningsPath`, at most `maxFrameRate` frames a second, with hands (near
    /// the pose's wrists, where the rules read them) or not, the models on
    /// `delegate` (`cpu` or `gpu`), in `threads` parts at once.
    public static func landmarksArguments(
        video: String, trackPath: String, warningsPath: String, maxFrameRate: Double, hands: Bool, delegate: String = "cpu",
        threads: Int = 1
    ) -> [String] {
        ["landmarks", video, "--out", trackPath, "--warnings-out", warningsPath, "--max-fps", String(maxFrameRate),
         "--threads", String(threads)]
            + (hands ? ["--hands", "--hands-near-wrists"] : []) + (delegate == "cpu" ? [] : ["--delegate", delegate])
    }

    /// The arguments of the worker's own `spotter thumbnails` (not for users):
    /// a JPEG of `video` at each of `times` (milliseconds), with the skeleton of
    /// the track at `trackPath`, written as `1.jpg`, `2.jpg`, … in `directory`.
    public static func thumbnailsArguments(video: String, trackPath: String, times: [Int], directory: String) -> [String] {
        ["thumbnails", video, "--track", trackPath, "--at", times.map(String.init).joined(separator: ","), "--out-dir", directory]
    }
}
