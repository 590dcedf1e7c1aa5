import ArgumentParser
import BlockingWork
import CSpawnShims
import Contracts
import Foundation

/// Reports `error` as the one line `spotter: error: …` on standard error (the
/// operator's view: a database server's own message included) and returns the
/// exit status of contracts §1 that ends the command.
func commandFailure(_ error: any Error) -> ExitCode {
    commandFailure(describeFailure(error).kind, describeFailureForOperator(error))
}

/// Reports `message` as the one line `spotter: error: …` and returns the exit status of `kind`.
func commandFailure(_ kind: FailureKind, _ message: String) -> ExitCode {
    FileHandle.standardError.write(Data("\(CommandContract.errorPrefix)\(message)\n".utf8))
    return ExitCode(CommandContract.exitStatus(of: kind))
}

/// As the worker's analysis child (`CommandContract.exitWithParentVariable` names
/// the worker's pid): stops at once if the worker has gone, and watches it while
/// the analysis runs, ending this process the moment it goes — a crashed worker
/// leaves no analysis running. (The kernel's PR_SET_PDEATHSIG is tied to the
/// thread that spawned the child, which in a thread pool may end any time.)
func exitWithParentIfAsked() throws {
    guard let value = ProcessInfo.processInfo.environment[CommandContract.exitWithParentVariable], let parent = Int32(value) else {
        return
    }
    guard getppid() == parent else {
        throw commandFailure(.unavailable, "the worker that started this analysis (pid \(parent)) has gone")
    }
    let isolation = CSpawn_networkIsolation()
    if isolation > 0 {
        // In the worker's log on every job: the host should allow it (root, or user namespaces).
        FileHandle.standardError.write(Data(
            "spotter: warning: the analysis keeps the network: no namespace of its own (\(String(cString: strerror(isolation))))\n".utf8))
    }
    startDedicatedThread("spotter.parent-watch") {
        while getppid() == parent { usleep(250_000) }
        _exit(CommandContract.exitStatus(of: .unavailable))
    }
}
