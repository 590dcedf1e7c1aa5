/// Synchronous access to a connection, lent by `PostgresConnection.withSession`
/// or `transaction` for the duration of the closure; do not keep it.
public struct PostgresSession {
    let link: ConnectionLink

    /// Runs one statement with its parameters bound as `$1`, `$2`, … and returns its rows.
    @discardableResult
    public func query(_ sql: String, _ parameters: [any PostgresEncodable] = []) throws -> PostgresRows {
        try link.execute(sql, parameters.map(\.postgresValue))
    }

    /// Runs one statement like `query`, prepared on this connection the first
    /// time and reused after: parsed and planned once. For hot statements whose
    /// plan suits any size of table (driven by indexes): after a few runs
    /// PostgreSQL may keep one generic plan, made with the statistics of then.
    @discardableResult
    public func preparedQuery(_ sql: String, _ parameters: [any PostgresEncodable] = []) throws -> PostgresRows {
        try link.execute(sql, parameters.map(\.postgresValue), prepare: true)
    }

    /// Runs a script of several statements, such as a migration file. For the
    /// project's own SQL files only: values from users go through `query`'s parameters.
    public func executeScript(_ sql: String) throws {
        try link.executeScript(sql)
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    @discardableResult
    public func transaction<T>(_ body: (PostgresSession) throws -> T) throws -> T {
        try query("BEGIN")
        do {
            let value = try body(self)
            try query("COMMIT")
            return value
        } catch {
            _ = try? query("ROLLBACK")
            throw error
        }
    }
}
