import Foundation

/// Directories of data an installation ships beside its executable: `Rules/`
/// and `Migrations/`.
enum InstallationDirectory {
    /// `$environmentVariable` when set, else the first directory called `name`
    /// holding `marker`, beside or above the executable (so a build inside the
    /// repository finds the repository's).
    static func find(
        _ name: String, marker: String, environmentVariable: String,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: String = CommandLine.arguments.first ?? ""
    ) -> String? {
        if let explicit = environment[environmentVariable], !explicit.isEmpty { return explicit }
        var directory = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent(marker).path) {
                return candidate.path
            }
            directory.deleteLastPathComponent()
        }
        return nil
    }
}
