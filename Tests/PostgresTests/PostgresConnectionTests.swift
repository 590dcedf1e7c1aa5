import Contracts
import Foundation
import Postgres
import Testing
import TestSupport

@Suite("A libpq connection to a real server", .postgresDatabase)
struct PostgresConnectionTests {
    @Test("parameters of every type go in and come back out")
    func roundTrip() async throws {
        let connection = try await PostgresConnection.connect(to: PostgresDatabase.url)
        let id = UUID(), now = Date(timeIntervalSince1970: 1_795_253_400.123456)
        let row = try #require(try await connection.query(
            "SELECT $1::int8 AS n, $2::text AS t, $3::bytea AS b, $4::timestamptz AS d, $5::uuid AS u, $6::bool AS f, $7::float8 AS x, $8::text AS missing",
            [Int64.max, "naïve ' quote \" and \\ backslash", [UInt8](arrayLiteral: 0, 1, 254, 255), now, id, true, 0.1, String?.none]
        ).first)
        #expect(try row.decode("n", as: Int64.self) == .max)
        #expect(try row.decode("t", as: String.self) == "naïve ' quote \" and \\ backslash")
        #expect(try row.decode("b", as: [UInt8].self) == [0, 1, 254, 255])
        #expect(abs(try row.decode("d", as: Date.self).timeIntervalSince(now)) < 1e-6)
        #expect(try row.decode("u", as: UUID.self) == id)
        #expect(try row.decode("f", as: Bool.self))
        #expect(try row.decode("x", as: Double.self) == 0.1)
        #expect(try row.decode("missing", as: String?.self) == nil)
    }

    @Test("a hostile parameter is only ever a value")
    func injection() async throws {
        let connection = try await PostgresConnection.connect(to: PostgresDatabase.url)
        try await connection.query("CREATE TABLE notes (body text NOT NULL)")
        let hostile = "x'); DROP TABLE notes; --"
        try await connection.query("INSERT INTO notes (body) VALUES ($1)", [hostile])
        let rows = try await connection.query("SELECT body FROM notes")
        #expect(try rows.map { try $0.decode("body", as: String.self) } == [hostile])
    }

    @Test("server errors carry the SQLSTATE, and the connection goes on")
    func serverErrors() async throws {
        let connection = try await PostgresConnection.connect(to: PostgresDatabase.url)
        try await connection.query("CREATE TABLE keys (k text PRIMARY KEY)")
        try await connection.query("INSERT INTO keys VALUES ($1)", ["a"])
        let duplicate = try await #require(throws: PostgresError.self) {
            try await connection.query("INSERT INTO keys VALUES ($1)", ["a"])
        }
        #expect(duplicate.isUniqueViolation && duplicate.code == .server && !duplicate.isTransient)
        let syntax = try await #require(throws: PostgresError.self) { try await connection.query("SELEC 1") }
        #expect(syntax.sqlState == "42601")
        #expect(syntax.serverMessage?.contains("SELEC") == true, "the server's own message is kept for operators")
        #expect(try await connection.query("SELECT 1 AS one")[0].decode("one", as: Int.self) == 1)
    }

    @Test("what is safe to show is kept apart from what only operators read: a bad value is never in the message")
    func safeMessages() async throws {
        let connection = try await PostgresConnection.connect(to: PostgresDatabase.url)
        let invalid = try await #require(throws: PostgresError.self) {
            try await connection.query("SELECT $1::uuid AS id", ["not-a-uuid-hunter2secret"])
        }
        #expect(invalid.sqlState == "22P02")
        #expect(!invalid.message.contains("hunter2secret") && !invalid.description.contains("hunter2secret"), "\(invalid)")
        #expect(String(reflecting: invalid).contains("hunter2secret"), "operators see the server's message")
        let row = try await connection.query("SELECT 'hunter2secret'::text AS word")[0]
        let decoding = try #require(throws: PostgresError.self) { try row.decode("word", as: Int.self) }
        #expect(!decoding.description.contains("hunter2secret") && String(reflecting: decoding).contains("hunter2secret"))
    }

    @Test("reading a column as the wrong type, a missing column or NULL says which")
    func decodingErrors() async throws {
        let connection = try await PostgresConnection.connect(to: PostgresDatabase.url)
        let row = try await connection.query("SELECT 'abc'::text AS word, NULL::int AS nothing")[0]
        let wrongType = try #require(throws: PostgresError.self) { try row.decode("word", as: Int.self) }
        #expect(wrongType.code == .decoding && wrongType.message.contains("word"))
        #expect(throws: PostgresError.self) { try row.decode("absent", as: String.self) }
        let null = try #require(throws: PostgresError.self) { try row.decode("nothing", as: Int.self) }
        #expect(null.message.contains("NULL"))
    }

    @Test("a transaction commits when its body returns and rolls back when it throws")
    func transactions() async throws {
        let connection = try await PostgresConnection.connect(to: PostgresDatabase.url)
        try await connection.query("CREATE TABLE ledger (amount int NOT NULL)")
        try await connection.transaction { try $0.query("INSERT INTO ledger VALUES (1)") }
        struct Abort: Error {}
        await #expect(throws: Abort.self) {
            try await connection.transaction { session in
                try session.query("INSERT INTO ledger VALUES (2)")
                throw Abort()
            }
        }
        let sum = try await connection.query("SELECT sum(amount)::int AS total FROM ledger")[0]
        #expect(try sum.decode("total", as: Int.self) == 1)
    }

    @Test("notifications reach a listener; waiting without one times out")
    func notifications() async throws {
        let listener = try await PostgresConnection.connect(to: PostgresDatabase.url)
        let sender = try await PostgresConnection.connect(to: PostgresDatabase.url)
        try await listener.listen("spotter test channel")
        #expect(try await listener.nextNotification(timeout: .milliseconds(50)) == nil)
        try await sender.query("SELECT pg_notify($1, $2)", ["spotter test channel", "hello"])
        let notification = try await listener.nextNotification(timeout: .seconds(120))
        #expect(notification == PostgresNotification(channel: "spotter test channel", payload: "hello"))
    }

    @Test("a connection the server dropped fails one statement, then reconnects and listens again")
    func reconnect() async throws {
        let connection = try await PostgresConnection.connect(to: PostgresDatabase.url)
        let other = try await PostgresConnection.connect(to: PostgresDatabase.url)
        try await connection.listen("after_reconnect")
        let pid = try await connection.query("SELECT pg_backend_pid() AS pid")[0].decode("pid", as: Int.self)
        try await other.query("SELECT pg_terminate_backend($1)", [pid])
        let lost = try await #require(throws: PostgresError.self) { try await connection.query("SELECT 1") }
        #expect(lost.isTransient)
        let newPID = try await connection.query("SELECT pg_backend_pid() AS pid")[0].decode("pid", as: Int.self)
        #expect(newPID != pid)
        try await other.query("SELECT pg_notify($1, '')", ["after_reconnect"])
        #expect(try await connection.nextNotification(timeout: .seconds(120))?.channel == "after_reconnect")
    }

    @Test("a prepared statement is prepared once per connection and survives a change of its table and a reconnect")
    func preparedStatements() async throws {
        let connection = try await PostgresConnection.connect(to: PostgresDatabase.url)
        let other = try await PostgresConnection.connect(to: PostgresDatabase.url)
        try await connection.query("CREATE TABLE prepared_items (n int8 NOT NULL)")
        let insert = "INSERT INTO prepared_items (n) VALUES ($1) RETURNING *"
        for n in 1...3 { #expect(try await connection.preparedQuery(insert, [Int64(n)])[0].decode("n", as: Int64.self) == Int64(n)) }
        let kept = "SELECT count(*)::int AS count FROM pg_prepared_statements WHERE statement = $1"
        #expect(try await connection.query(kept, [insert])[0].decode("count", as: Int.self) == 1)

        // Another connection adds a column: the prepared `RETURNING *` would change its rows.
        try await other.query("ALTER TABLE prepared_items ADD COLUMN note text DEFAULT 'new'")
        let afterChange = try await connection.preparedQuery(insert, [Int64(4)])
        #expect(try afterChange[0].decode("note", as: String.self) == "new")
        // Within a transaction the change aborts it: the caller sees the error and may start again.
        try await connection.preparedQuery(insert, [Int64(5)])
        try await other.query("ALTER TABLE prepared_items ADD COLUMN extra int DEFAULT 7")
        let aborted = try await #require(throws: PostgresError.self) {
            try await connection.transaction { session in try session.preparedQuery(insert, [Int64(0)]) }
        }
        #expect(aborted.sqlState == "0A000")
        let again = try await connection.transaction { session in try session.preparedQuery(insert, [Int64(6)]) }
        #expect(try again[0].decode("extra", as: Int.self) == 7)

        let pid = try await connection.query("SELECT pg_backend_pid() AS pid")[0].decode("pid", as: Int.self)
        try await other.query("SELECT pg_terminate_backend($1)", [pid])
        _ = try? await connection.query("SELECT 1")
        #expect(try await connection.preparedQuery(insert, [Int64(7)])[0].decode("n", as: Int64.self) == 7, "prepared again on the new connection")
        let stored = try await connection.query("SELECT n FROM prepared_items ORDER BY n").map { try $0.decode("n", as: Int64.self) }
        #expect(stored == Array(1...7), "the aborted insert left nothing")
    }

    @Test("a URL libpq cannot parse, or echoes, never shows its password, to clients or operators", arguments: [
        "postgresql://spotter:hunter2secret@[::1]x/db",  // libpq quotes the whole URI
        "postgresql://spotter:hunter2secret%zz@localhost/db",  // … or the bad token, password and all
        "postgresql://spotter:hunter2secret@/db?host=/nonexistent&sslmode=hunter2secret",  // … or an option's value
        "host=/nonexistent user=spotter password=hunter2secret sslmode=hunter2secret dbname=x",
    ])
    func passwordsRedacted(_ url: String) async throws {
        let error = try await #require(throws: PostgresError.self) { _ = try await PostgresConnection.connect(to: url) }
        #expect(error.code == .connectionFailed)
        for text in [error.description, String(reflecting: error), describeFailureForOperator(error)] {
            #expect(!text.contains("hunter2secret") && !text.contains(url), "\(text)")
        }
    }

    @Test("a server that is not there is connectionFailed, and the password is not in the message")
    func unreachable() async throws {
        let error = try await #require(throws: PostgresError.self) {
            _ = try await PostgresConnection.connect(
                to: "postgresql://spotter:hunter2secret@/spotter?host=/nonexistent/socket-dir&connect_timeout=2")
        }
        #expect(error.code == .connectionFailed && error.isTransient)
        #expect(error.message.contains("could not connect"))
        #expect(!error.description.contains("hunter2secret"))
    }
}
