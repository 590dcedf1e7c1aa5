import ArgumentParser
import Foundation
import Pipeline

/// Reports `error` as the one line `spotter: error: …` on standard error and
/// returns the exit status of contracts §1 that ends the command.
func commandFailure(_ error: any Error) -> ExitCode {
    let (kind, message) = describeFailure(error)
    return commandFailure(kind, message)
}

/// Reports `message` as the one line `spotter: error: …` and returns the exit status of `kind`.
func commandFailure(_ kind: FailureKind, _ message: String) -> ExitCode {
    FileHandle.standardError.write(Data("spotter: error: \(message)\n".utf8))
    return switch kind {
    case .usage: ExitCode(64)
    case .badInput: ExitCode(65)
    case .unavailable: ExitCode(69)
    case .internalError: ExitCode(70)
    case .cannotCreate: ExitCode(73)  // sysexits' EX_CANTCREAT
    }
}
