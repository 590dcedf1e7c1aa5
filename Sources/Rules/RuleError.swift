/// A problem in a rule file, with the line it is on.
public struct RuleError: Error, Sendable, CustomStringConvertible {
    /// The file, as named by the caller.
    public var file: String
    /// The line, counting from 1; 0 when the problem is the file as a whole.
    public var line: Int
    public var reason: String

    public init(file: String, line: Int, reason: String) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    public var description: String { line > 0 ? "\(file):\(line): \(reason)" : "\(file): \(reason)" }
}
