import Foundation
import Rules

/// The repository's Rules/ directory.
enum RuleFixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Rules").path

    static let book: RuleBook = {
        do { return try RuleBook(directory: directory) } catch { fatalError("Rules/ must load: \(error)") }
    }()
}
