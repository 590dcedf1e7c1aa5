import Foundation

/// Runs the built `spotter` executable, as a user would.
public enum SpotterProcess {
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

    /// The repository the tests were built from.
    public static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The version of the shipped rule for `exercise` (`Rules/EXERCISE.yaml`'s
    /// `version:`), which tests of reports and rule versions number from.
    public static func shippedVersion(of exercise: String) -> Int {
        let file = repository.appendingPathComponent("Rules/\(exercise).yaml")
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix("version: ") } ?? ""
        return Int(line.dropFirst("version: ".count).prefix { $0.isNumber }) ?? 0
    }

    /// Runs `spotter arguments…` with the test environment plus `environment`.
    public static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> SubprocessOutcome {
        try await runSubprocess(executable, arguments, environment: environment)
    }
}
