import Contracts
import Foundation
import Glibc

/// How a child process's run ended.
public enum ChildProcessTermination: Sendable, Equatable {
    /// The child exited by itself with this status: 0 for success; Spotter's
    /// commands use 64 usage, 65 bad input, 69 unavailable, 70 internal error,
    /// 73 cannot create an output (contracts §1).
    case exited(Int32)
    /// A signal ended the child before its time was up: a crash, or a kill from outside.
    case signalled(ProcessSignal)
    /// The child was still running at the time limit and was stopped.
    case timedOut(after: Duration)
    /// The child's resident memory grew past the limit (bytes) and it was killed.
    case memoryExceeded(limit: Int)
}

/// A signal that ends a process, by number and name.
public struct ProcessSignal: Sendable, Hashable, CustomStringConvertible {
    /// The signal's number on this system.
    public var number: Int32

    public init(number: Int32) {
        self.number = number
    }

    /// SIGTERM, how a run stops its child first.
    public static let terminate = ProcessSignal(number: SIGTERM)
    /// SIGKILL, how a run stops a child that outlives the grace period.
    public static let kill = ProcessSignal(number: SIGKILL)
    /// SIGSEGV, a crash on a bad memory access.
    public static let segmentationFault = ProcessSignal(number: SIGSEGV)
    /// SIGABRT, a crash on a failed check.
    public static let abort = ProcessSignal(number: SIGABRT)

    /// The signal's name, such as "SIGSEGV"; "signal 34" for one without a name.
    public var name: String { Self.names[number] ?? "signal \(number)" }

    public var description: String { name }

    /// Whether the signal is a program's own fault rather than a kill from outside.
    public var isCrash: Bool { [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS].contains(number) }

    private static let names: [Int32: String] = [
        SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
        SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGUSR1: "SIGUSR1",
        SIGSEGV: "SIGSEGV", SIGUSR2: "SIGUSR2", SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM",
        SIGSTKFLT: "SIGSTKFLT", SIGCHLD: "SIGCHLD", SIGCONT: "SIGCONT", SIGSTOP: "SIGSTOP", SIGTSTP: "SIGTSTP",
        SIGTTIN: "SIGTTIN", SIGTTOU: "SIGTTOU", SIGURG: "SIGURG", SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ",
        SIGVTALRM: "SIGVTALRM", SIGPROF: "SIGPROF", SIGWINCH: "SIGWINCH", SIGIO: "SIGIO", SIGPWR: "SIGPWR",
        SIGSYS: "SIGSYS",
    ]
}

/// What a child process's run left behind.
public struct ChildProcessOutcome: Sendable {
    /// The child's process ID; it has been reaped, and may belong to another process by now.
    public var processID: Int32
    /// How the run ended.
    public var termination: ChildProcessTermination
    /// The signal that ended the child, if one did, also when it was stopped:
    /// SIGTERM, or SIGKILL when it outlived the grace period or its memory limit.
    public var signal: ProcessSignal?
    /// Standard output, up to the run's limit.
    public var standardOutput: Data
    /// Whether standard output went on past the limit.
    public var standardOutputTruncated: Bool
    /// The end of standard error, from the start of a line.
    public var standardErrorTail: String
    /// From the start of the child to the end of its run.
    public var wallTime: Duration

    /// The status the child exited with by itself; nil when a signal or a limit ended it.
    public var exitStatus: Int32? {
        if case .exited(let status) = termination { status } else { nil }
    }

    /// Whether the child exited by itself with status 0.
    public var succeeded: Bool { termination == .exited(0) }

    /// Why the run failed, in one line fit to store and to show; nil if it succeeded.
    ///
    /// For a child that exited with a failure status this is its last
    /// `spotter: error: …` line without the prefix, if it wrote one. `subject`
    /// names the child in the other cases: "the analysis crashed (SIGSEGV)",
    /// "the analysis did not finish within 600 s".
    public func failureReason(subject: String = "the analysis") -> String? {
        switch termination {
        case .exited(0):
            return nil
        case .exited(let status):
            let prefix = CommandContract.errorPrefix
            let reported = standardErrorTail.split(separator: "\n").last { $0.hasPrefix(prefix) }
                .map { Self.oneLine($0.dropFirst(prefix.count)) }
            guard let reported, !reported.isEmpty else { return "\(subject) failed with exit status \(status)" }
            return reported
        case .signalled(let signal):
            return signal.isCrash ? "\(subject) crashed (\(signal.name))" : "\(subject) was killed (\(signal.name))"
        case .memoryExceeded(let limit):
            return "\(subject) needed more than \(limit >> 20) MiB of memory and was stopped"
        case .timedOut(let limit):
            let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
            return "\(subject) did not finish within \(String(format: "%g", seconds)) s"
        }
    }

    /// `text` without control characters, trimmed, and cut to 300 characters.
    private static func oneLine(_ text: Substring) -> String {
        let printable = String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
            .trimmingCharacters(in: .whitespaces)
        return printable.count > 300 ? printable.prefix(299) + "…" : printable
    }
}
