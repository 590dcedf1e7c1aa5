import Dispatch
import Foundation
import Synchronization

/// What a child process left behind.
public struct SubprocessOutcome: Sendable {
    public var status: Int32
    public var standardOutput: Data
    public var standardError: String

    /// Standard error's lines that are Spotter's own error reports.
    public var errorLines: [String] {
        standardError.split(separator: "\n").map(String.init).filter { $0.hasPrefix("spotter: error:") }
    }
}

/// Runs `executable` to its end, with the test environment plus `environment`.
public func runSubprocess(
    _ executable: URL, _ arguments: [String], environment: [String: String] = [:]
) throws -> SubprocessOutcome {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let output = Pipe(), error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    // Read both pipes to the end before waiting, so that neither fills up.
    let errorData = Mutex(Data())
    let errorRead = DispatchGroup()
    DispatchQueue.global().async(group: errorRead) {
        let data = error.fileHandleForReading.readDataToEndOfFile()
        errorData.withLock { $0 = data }
    }
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    errorRead.wait()
    process.waitUntilExit()
    return SubprocessOutcome(
        status: process.terminationStatus, standardOutput: outputData,
        standardError: String(decoding: errorData.withLock { $0 }, as: UTF8.self))
}
