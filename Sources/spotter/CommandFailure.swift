import ArgumentParser
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
