/// What runs statements: one connection, or a pool of them (for callers that
/// run at once). Stores take a client, so that the same queries serve a worker
/// on one connection and an API server on a pool.
public protocol PostgresClient: Sendable {
    /// Runs `body` with a session for synchronous statements; nothing else uses
    /// its connection meanwhile.
    func withSession<T: Sendable>(_ body: @escaping @Sendable (PostgresSession) throws -> T) async throws -> T
}

extension PostgresClient {
    /// Runs one statement with its parameters bound as `$1`, `$2`, … and returns its rows.
    @discardableResult
    public func query(_ sql: String, _ parameters: [any PostgresEncodable] = []) async throws -> PostgresRows {
        try await withSession { try $0.query(sql, parameters) }
    }

    /// Runs one statement prepared on its connection (`PostgresSession.preparedQuery`).
    @discardableResult
    public func preparedQuery(_ sql: String, _ parameters: [any PostgresEncodable] = []) async throws -> PostgresRows {
        try await withSession { try $0.preparedQuery(sql, parameters) }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    @discardableResult
    public func transaction<T: Sendable>(_ body: @escaping @Sendable (PostgresSession) throws -> T) async throws -> T {
        try await withSession { session in try session.transaction { try body($0) } }
    }
}

extension PostgresConnectionPool: PostgresClient {
    public func withSession<T: Sendable>(_ body: @escaping @Sendable (PostgresSession) throws -> T) async throws -> T {
        try await withConnection { try await $0.withSession(body) }
    }
}
