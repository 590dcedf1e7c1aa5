import ArgumentParser
import Foundation
import Landmarkers
import Pipeline

/// Exit statuses of contracts §1.
enum ExitStatus {
    static let usage: Int32 = 64
    static let badInput: Int32 = 65
    static let unavailable: Int32 = 69
    static let internalError: Int32 = 70
    /// sysexits' EX_CANTCREAT: an output file could not be written.
    static let cannotCreate: Int32 = 73
}

/// Reports `error` as the one line `spotter: error: …` on standard error and
/// returns the exit code that ends the command.
func commandFailure(_ error: any Error) -> ExitCode {
    let (status, message) = classify(error)
    FileHandle.standardError.write(Data("spotter: error: \(message)\n".utf8))
    return ExitCode(status)
}

private func classify(_ error: any Error) -> (Int32, String) {
    switch error {
    case let error as LandmarkerError:
        switch error.code {
        case .engineUnavailable, .modelUnavailable: return (ExitStatus.unavailable, error.description)
        case .unreadableImage, .invalidImage: return (ExitStatus.badInput, error.description)
        case .invalidOptions: return (ExitStatus.usage, error.description)
        default: return (ExitStatus.internalError, error.description)
        }
    case let error as PipelineError:
        switch error.code {
        case .unreadableInput, .unsupportedInput: return (ExitStatus.badInput, error.message)
        case .outputFailed: return (ExitStatus.cannotCreate, error.message)
        default: return (ExitStatus.internalError, error.message)
        }
    default:
        return (ExitStatus.internalError, String(describing: error))
    }
}
