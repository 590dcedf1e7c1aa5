import Dispatch
import Foundation
import Synchronization

/// Runs the built `spotter` executable, as a user would.
public struct SpotterProcess {
    /// What a run left behind.
    public struct Outcome: Sendable {
        public var status: Int32
        public var standardOutput: Data
        public var standardError: String

        /// Standard error's lines that are Spotter's own error reports.
        public var errorLines: [String] {
            standardError.split(separator: "\n").map(String.init).filter { $0.hasPrefix("spotter: error:") }
        }
    }

    /// `.build/<configuration>/spotter`, beside the test bundle.
    public static let executable: URL = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("spotter")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: "/spotter-executable-not-built")
    }()

    /// Runs `spotter arguments…` with the test environment plus `environment`.
    public static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Outcome {
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
        return Outcome(
            status: process.terminationStatus, standardOutput: outputData,
            standardError: String(decoding: errorData.withLock { $0 }, as: UTF8.self))
    }
}
