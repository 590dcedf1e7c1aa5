import Contracts

/// A problem in a rule file, with the line it is on.
public struct RuleError: Error, Sendable, CustomStringConvertible {
    /// The file, as named by the caller.
    public var file: String
    /// The line, counting from 1; 0 when the problem is the file as a whole.
    public var line: Int
    /// The column, counting from 1; 0 when not known.
    public var column: Int
    public var reason: String

    public init(file: String, line: Int, column: Int = 0, reason: String) {
        self.file = file
        self.line = line
        self.column = column
        self.reason = reason
    }

    public var description: String { line > 0 ? "\(file):\(line): \(reason)" : "\(file): \(reason)" }
}

/// An exercise no rule file describes.
public struct UnknownExercise: Error, Sendable, CustomStringConvertible {
    public var name: String
    /// Where the rules were looked for.
    public var directory: String
    /// The exercises that directory has rules for.
    public var known: [String]

    public var description: String {
        "no rule for exercise \"\(name)\" in \(directory) (known: \(known.isEmpty ? "none" : known.joined(separator: ", ")))"
    }
}

extension RuleError: DescribedFailure {
    public var failureKind: FailureKind { .badInput }
    public var safeMessage: String { description }
}

extension UnknownExercise: DescribedFailure {
    public var failureKind: FailureKind { .usage }
    public var safeMessage: String { description }
}
