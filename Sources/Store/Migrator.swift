import Postgres

/// Applies pending migrations in version order, each in its own transaction,
/// under an advisory lock so that two at once are safe; records each file's
/// version and SHA-256, and refuses to go on when an applied file was edited or
/// removed.
public struct Migrator: Sendable {
    public var files: [MigrationFile]

    /// The advisory lock key all migrators take (`'spotter.migrate'` hashed, fixed).
    static let lockKey: Int64 = 0x5370_6f74_4d69_6772

    public init(files: [MigrationFile]) {
        self.files = files
    }

    /// What a run did.
    public struct Outcome: Sendable, Equatable {
        /// The migrations this run applied, in order.
        public var applied: [MigrationFile]
        /// How many were applied before.
        public var alreadyApplied: Int
    }

    /// Applies what is pending; a no-op when the database is up to date.
    public func migrate(_ connection: PostgresConnection) async throws -> Outcome {
        let files = self.files
        return try await connection.withSession { session in
            try session.query("SELECT pg_advisory_lock($1)", [Self.lockKey])
            defer { _ = try? session.query("SELECT pg_advisory_unlock($1)", [Self.lockKey]) }
            try session.query("""
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version     integer     PRIMARY KEY,
                    name        text        NOT NULL,
                    sha256      text        NOT NULL,
                    applied_at  timestamptz NOT NULL DEFAULT now()
                )
                """)
            let applied = try Self.appliedVersions(session)
            for (version, recorded) in applied {
                guard let file = files.first(where: { $0.version == version }) else {
                    throw MigrationError(
                        file: "migration \(version) (\(recorded.name))",
                        reason: "applied to the database but its file is missing")
                }
                guard try Self.sha256(of: file.sql, session) == recorded.sha256 else {
                    throw MigrationError(
                        file: file.path, reason: "was edited after it was applied; add a new migration instead")
                }
            }
            var outcome = Outcome(applied: [], alreadyApplied: applied.count)
            for file in files where applied[file.version] == nil {
                do {
                    try session.transaction { session in
                        try session.executeScript(file.sql)
                        try session.query(
                            "INSERT INTO schema_migrations (version, name, sha256) VALUES ($1, $2, $3)",
                            [file.version, file.name, try Self.sha256(of: file.sql, session)])
                    }
                } catch let error as PostgresError where error.code == .server {
                    throw MigrationError(file: file.path, reason: "the server refused it: \(error.serverMessage ?? error.description)")
                }
                outcome.applied.append(file)
            }
            return outcome
        }
    }

    private static func appliedVersions(_ session: PostgresSession) throws -> [Int: (name: String, sha256: String)] {
        var applied: [Int: (name: String, sha256: String)] = [:]
        for row in try session.query("SELECT version, name, sha256 FROM schema_migrations") {
            applied[try row.decode("version", as: Int.self)] = (try row.decode("name"), try row.decode("sha256"))
        }
        return applied
    }

    private static func sha256(of sql: String, _ session: PostgresSession) throws -> String {
        let row = try session.query("SELECT encode(sha256(convert_to($1, 'UTF8')), 'hex') AS digest", [sql]).first
        return try row!.decode("digest", as: String.self)
    }
}
