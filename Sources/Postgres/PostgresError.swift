import Contracts

/// An error talking to PostgreSQL: the server could not be reached, the
/// connection was lost, the server refused a statement, or a value in a row was
/// not what the caller asked for.
///
/// Like postgres-nio's `PSQLError`, what is safe to show is kept apart from
/// what only operators should read: `message` and `description` never hold a
/// password, a parameter value or a value from a row (a server message may
/// quote the bad value: `invalid input syntax for type uuid: "…"`), so they
/// may be stored with a job and shown to clients; `debugDescription`
/// (`String(reflecting:)`) adds the server's own message, detail and hint and
/// where the error was raised, for logs and the operator's command line.
/// `sqlState` is the server's five-character SQLSTATE when the server reported
/// one, such as `23505` for a unique violation.
public struct PostgresError: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        enum Base: String, Hashable, Sendable {
            case connectionFailed
            case connectionLost
            case server
            case decoding
            case busy
        }

        let base: Base

        /// The server could not be reached or refused the connection.
        public static let connectionFailed = Code(base: .connectionFailed)
        /// The connection broke while a statement was on its way; whether the
        /// statement took effect is unknown unless it ran in a transaction.
        public static let connectionLost = Code(base: .connectionLost)
        /// The server refused the statement; `sqlState` says why.
        public static let server = Code(base: .server)
        /// A column's value could not be read as the type asked for.
        public static let decoding = Code(base: .decoding)
        /// Every connection of a pool stayed lent past its wait limit.
        public static let busy = Code(base: .busy)

        public var description: String { base.rawValue }
    }

    public var code: Code
    /// What went wrong, safe to show.
    public var message: String
    /// The SQLSTATE the server reported, if any.
    public var sqlState: String?
    /// For operators only: the server's own message, which may quote values.
    public var serverMessage: String?
    /// For operators only: the server's detail and hint lines, or the value that could not be read.
    public var detail: String?
    public var hint: String?
    public var file: String
    public var line: Int

    public init(
        _ code: Code, _ message: String, sqlState: String? = nil, serverMessage: String? = nil, detail: String? = nil,
        hint: String? = nil, file: String = #fileID, line: Int = #line
    ) {
        self.code = code
        self.message = message
        self.sqlState = sqlState
        self.serverMessage = serverMessage
        self.detail = detail
        self.hint = hint
        self.file = file
        self.line = line
    }

    /// The message and the SQLSTATE: safe to show.
    public var description: String {
        sqlState.map { "\(message) (SQLSTATE \($0))" } ?? message
    }

    /// Everything known, for logs and operators: may quote values.
    public var debugDescription: String {
        var text = description
        if let serverMessage { text += ": \(serverMessage)" }
        if let detail { text += "; \(detail)" }
        if let hint { text += " (hint: \(hint))" }
        return text
    }

    /// Whether trying again later may succeed: the server was unreachable, the
    /// connection broke, or the server reported a transient condition
    /// (serialization failure, deadlock, shutting down, too many connections).
    public var isTransient: Bool {
        switch code.base {
        case .connectionFailed, .connectionLost, .busy: return true
        case .decoding: return false
        case .server:
            guard let sqlState else { return false }
            return sqlState.hasPrefix("08") || sqlState.hasPrefix("53") || sqlState.hasPrefix("57P")
                || sqlState == "40001" || sqlState == "40P01"
        }
    }

    /// A unique constraint was violated (SQLSTATE 23505).
    public var isUniqueViolation: Bool { sqlState == "23505" }
}

extension PostgresError: DescribedFailure {
    public var failureKind: FailureKind {
        if code == .connectionFailed || code == .connectionLost || code == .busy { return .unavailable }
        // Data exceptions (22: a value out of range, bad input syntax) and integrity
        // violations (23) come from the data itself: the same again on every try.
        if let sqlState, sqlState.hasPrefix("22") || sqlState.hasPrefix("23") { return .badInput }
        return .internalError
    }

    public var safeMessage: String { "database: \(description)" }
    public var operatorMessage: String { "database: \(debugDescription)" }
}
