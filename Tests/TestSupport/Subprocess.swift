import BlockingWork
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
///
/// The wait is on a thread of its own (`onDedicatedThread`): tests run on Swift's cooperative pool,
/// which has one thread per core, and a few children waited on there (two, on
/// CI's two cores) would stall every other test in the process.
public func runSubprocess(
    _ executable: URL, _ arguments: [String], environment: [String: String] = [:]
) async throws -> SubprocessOutcome {
    try await onDedicatedThread("test-subprocess") {
        Result { try runSubprocessBlocking(executable, arguments, environment: environment) }
    }.get()
}

/// `runSubprocess`, blocking the calling thread: only for short tools run where
/// the caller cannot wait (under a lock).
public func runSubprocessBlocking(
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
