import BlockingWork
import Contracts
import Dispatch
import Foundation
import Glibc
import Synchronization

/// A program run as a child process under a time limit, so that its crash or
/// hang ends that run and nothing else: the worker runs the risky part of a
/// job (decoding, landmarking) as `spotter landmarks …` this way.
///
/// The child starts in a process group of its own, with standard input from
/// `/dev/null`, an empty signal mask, default signal dispositions and no file
/// descriptors but 0, 1 and 2. Running past `timeLimit`, or the cancellation
/// of the calling task, stops the whole group: SIGTERM, then SIGKILL after
/// `terminationGrace`. A child whose resident memory grows past `memoryLimit`
/// is killed at once (SIGKILL to the group): it is watched from here, ten times
/// a second, rather than limited from inside (`RLIMIT_AS` made a child hang on
/// a failed allocation instead of ending). Whatever the child leaves running in
/// its group when it ends is killed, so that a run never outlives its child.
public struct ChildProcess: Sendable {
    /// The program's path; it is not looked up in `PATH`.
    public var executable: String
    /// The arguments after the program's name.
    public var arguments: [String]
    /// The child's whole environment: nothing of this process's is passed on
    /// unless it is here (`inheriting(_:)` picks named variables of this process's).
    public var environment: [String: String]
    /// Where the child starts; this process's working directory when nil.
    public var workingDirectory: String?
    /// How long the child may run before it is stopped.
    public var timeLimit: Duration
    /// How long the child's group has between SIGTERM and SIGKILL.
    public var terminationGrace: Duration = .seconds(5)
    /// The most resident memory, in bytes, the child may use; no limit when nil.
    public var memoryLimit: Int?
    /// How many bytes of standard output are kept, from the start; the rest is read and dropped.
    public var standardOutputLimit = 1 << 20
    /// How many bytes at the end of standard error are kept; also the longest line passed on.
    public var standardErrorLimit = 64 << 10

    public init(
        executable: String, arguments: [String] = [], environment: [String: String] = [:],
        workingDirectory: String? = nil, timeLimit: Duration
    ) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.timeLimit = timeLimit
    }

    /// This process's values of the variables `names` (those it has).
    public static func inheriting(_ names: [String]) -> [String: String] {
        let own = ProcessInfo.processInfo.environment
        return Dictionary(uniqueKeysWithValues: names.compactMap { name in own[name].map { (name, $0) } })
    }

    /// Runs the program to its end, or until the time limit stops it.
    ///
    /// Returns once the child has been reaped and its pipes read to their end.
    /// `onStandardErrorLine` gets each line of standard error, without its
    /// newline, in order, on a thread of the run's own: it should return soon.
    /// Pipes and waiting are served by dedicated threads, never by the
    /// caller's executor.
    ///
    /// - Throws: `ChildProcessError` when the program cannot be started or
    ///   waited for; `CancellationError` when the calling task is cancelled
    ///   while the child runs (after the child has been stopped and reaped).
    public func run(onStandardErrorLine: (@Sendable (String) -> Void)? = nil) async throws -> ChildProcessOutcome {
        let clock = ContinuousClock()
        let start = clock.now
        let pipes = try spawn()
        let child = RunningChild(pid: pipes.processID, grace: terminationGrace)
        let (outputLimit, errorLimit) = (standardOutputLimit, standardErrorLimit)
        async let output = onDedicatedThread("child \(pipes.processID) stdout") {
            var capture = OutputCapture(limit: outputLimit)
            drain(pipes.standardOutput) { capture.take($0) }
            return capture
        }
        async let errorTail = onDedicatedThread("child \(pipes.processID) stderr") {
            var tail = ErrorTail(limit: errorLimit, onLine: onStandardErrorLine)
            drain(pipes.standardError) { tail.take($0) }
            return tail.finish()
        }
        let status = await withTaskCancellationHandler {
            await child.waitForExit(timeLimit: timeLimit, memoryLimit: memoryLimit)
        } onCancel: {
            child.stop(because: .cancelled)
        }
        let (capture, standardError) = await (output, errorTail)
        let stops = child.stops
        if stops.contains(.cancelled) { throw CancellationError() }
        guard let status else {
            throw ChildProcessError(executable: executable, message: "cannot wait for process \(child.pid)")
        }
        // The wait status, decoded as the macros WTERMSIG and WEXITSTATUS (not imported) do.
        let signal = status & 0x7f == 0 ? nil : ProcessSignal(number: status & 0x7f)
        let termination: ChildProcessTermination =
            if stops.contains(.memoryExceeded), let memoryLimit { .memoryExceeded(limit: memoryLimit) }
            else if stops.contains(.timedOut) { .timedOut(after: timeLimit) }
            else if let signal { .signalled(signal) }
            else { .exited((status >> 8) & 0xff) }
        return ChildProcessOutcome(
            processID: child.pid, termination: termination, signal: signal,
            standardOutput: capture.data, standardOutputTruncated: capture.truncated,
            standardErrorTail: standardError, wallTime: clock.now - start)
    }
}

/// A program that could not be started or waited for.
public struct ChildProcessError: Error, Sendable, CustomStringConvertible {
    /// The program's path.
    public var executable: String
    /// What went wrong, naming the program.
    public var message: String

    public var description: String { message }
}

/// Why a run stopped its child before the child ended by itself.
enum StopReason: Sendable, Hashable {
    case timedOut
    case memoryExceeded
    case cancelled
}

/// A spawned child: its reaping, and the signals sent to its process group.
///
/// Its process ID is also its group's ID. Signals are sent only while the
/// child is unreaped (a zombie at worst), so that neither ID can have been
/// reused for another process by then.
final class RunningChild: Sendable {
    let pid: pid_t
    private let grace: Duration
    private let state = Mutex<(ended: Bool, stops: Set<StopReason>)>((false, []))

    init(pid: pid_t, grace: Duration) {
        self.pid = pid
        self.grace = grace
    }

    /// Why the run stopped the child, if it did: both reasons when one came while stopping for the other.
    var stops: Set<StopReason> { state.withLock { $0.stops } }

    /// Waits for the child to end, stopping it at `timeLimit` or when its
    /// resident memory passes `memoryLimit` bytes, and reaps it.
    /// Its raw wait status, or nil if it cannot be waited for.
    func waitForExit(timeLimit: Duration, memoryLimit: Int?) async -> Int32? {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                guard (try? await Task.sleep(for: timeLimit)) != nil else { return }
                self.stop(because: .timedOut)
            }
            if let memoryLimit {
                group.addTask {
                    while (try? await Task.sleep(for: .milliseconds(100))) != nil {
                        guard let resident = self.residentBytes() else { return }
                        if resident > memoryLimit { return self.stop(because: .memoryExceeded) }
                    }
                }
            }
            let status = await onDedicatedThread("child \(pid) wait") { self.reap() }
            group.cancelAll()
            return status
        }
    }

    /// SIGTERM to the group, and SIGKILL after the grace period, unless the
    /// child has ended; SIGKILL at once for memory, which may not wait.
    func stop(because reason: StopReason) {
        let stopping = state.withLock { state in
            guard !state.ended else { return false }
            state.stops.insert(reason)
            if reason == .memoryExceeded { kill(-pid, SIGKILL) }
            guard state.stops.count == 1, reason != .memoryExceeded else { return false }
            kill(-pid, SIGTERM)
            return true
        }
        guard stopping else { return }
        let (seconds, attoseconds) = grace.components
        let nanoseconds = Int(clamping: seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
            self.state.withLock { state in
                if !state.ended { kill(-self.pid, SIGKILL) }
            }
        }
    }

    /// The child's resident memory in bytes (`/proc/PID/statm`); nil once it
    /// has ended or when it cannot be read.
    private func residentBytes() -> Int? {
        state.withLock { state in
            guard !state.ended, let statm = try? String(contentsOfFile: "/proc/\(pid)/statm", encoding: .ascii) else { return nil }
            let fields = statm.split(separator: " ")
            guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
            return pages * sysconf(Int32(_SC_PAGESIZE))
        }
    }

    /// Blocks until the child ends, kills what it left in its group, and reaps it.
    private func reap() -> Int32? {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 {
            guard errno == EINTR else { return nil }
        }
        state.withLock { state in
            state.ended = true
            kill(-pid, SIGKILL)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) != pid {
            guard errno == EINTR else { return nil }
        }
        return status
    }
}

extension ChildProcessError: DescribedFailure {
    public var failureKind: FailureKind { .unavailable }
    public var safeMessage: String { description }
}
