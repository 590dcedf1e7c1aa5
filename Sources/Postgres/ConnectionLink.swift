import CLibPQ
import Foundation
import Glibc

/// The owner of one `PGconn`: opened in `init`, finished in `deinit` or `close`.
/// Used only on its connection's serial queue, which is what makes it
/// `@unchecked Sendable`: it crosses to that queue, never runs on two threads.
final class ConnectionLink: @unchecked Sendable {
    private var connection: OpaquePointer?
    private var channels: [String] = []
    /// Statements prepared on this connection (`execute(…, prepare: true)`), by their text.
    private var prepared: [String: String] = [:]
    /// How many have been prepared on this server session: names are never reused.
    private var preparedCount = 0
    /// Parsed first: every message of libpq's is cleared of its password.
    private let connectionString: ConnectionString

    init(url: String) throws {
        connectionString = try ConnectionString(url)
        connection = PQconnectdb(url)
        guard let connection else {
            throw PostgresError(.connectionFailed, "could not connect to the database: libpq is out of memory")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let reason = lastMessage(of: connection)
            PQfinish(connection)
            self.connection = nil
            throw PostgresError(.connectionFailed, "could not connect to the database: \(reason)")
        }
        try prepareSession()
    }

    deinit { close() }

    func close() {
        if let connection { PQfinish(connection) }
        connection = nil
    }

    /// The open connection, reset first if the server went away since the last call.
    func reconnectIfBroken() throws {
        guard let connection else { throw PostgresError(.connectionFailed, "the database connection is closed") }
        guard PQstatus(connection) == CONNECTION_BAD else { return }
        PQreset(connection)
        guard PQstatus(connection) == CONNECTION_OK else {
            throw PostgresError(.connectionFailed, "could not reconnect to the database: \(lastMessage(of: connection))")
        }
        try prepareSession()
        for channel in channels { try execute("LISTEN \(try quotedIdentifier(channel))", []) }
    }

    private func prepareSession() throws {
        prepared = [:]
        preparedCount = 0
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        try executeScript("SET DateStyle TO ISO; SET TimeZone TO 'UTC'; SET client_encoding TO 'UTF8'")
    }

    /// Runs one statement; parameters go as text, or as binary for raw bytes.
    /// With `prepare`, the statement is prepared on this connection the first
    /// time and reused after: parsed and planned once.
    @discardableResult
    func execute(_ sql: String, _ parameters: [PostgresValue], prepare: Bool = false) throws -> PostgresRows {
        guard let connection else { throw PostgresError(.connectionFailed, "the database connection is closed") }
        guard prepare else {
            return try run(connection, parameters) { PQexecParams(connection, sql, Int32(parameters.count), nil, $0, $1, $2, 0) }
        }
        let name = try preparedName(sql, parameters.count, connection)
        do {
            return try run(connection, parameters) { PQexecPrepared(connection, name, Int32(parameters.count), $0, $1, $2, 0) }
        } catch let error as PostgresError where error.sqlState == Self.replanRefused {
            // A table's columns changed under a prepared `RETURNING *`: forget every
            // prepared statement and run this one unnamed — unless a transaction is
            // under way, which the error has aborted: its caller must start again.
            prepared = [:]
            guard PQtransactionStatus(connection) == PQTRANS_IDLE else { throw error }
            try executeScript("DEALLOCATE ALL")
            return try execute(sql, parameters)
        }
    }

    /// "cached plan must not change result type".
    private static let replanRefused = "0A000"

    /// The name `sql` is prepared under, preparing it now if need be.
    private func preparedName(_ sql: String, _ parameterCount: Int, _ connection: OpaquePointer) throws -> String {
        if let name = prepared[sql] { return name }
        preparedCount += 1
        let name = "spotter_\(preparedCount)"
        _ = try run(connection, []) { _, _, _ in PQprepare(connection, name, sql, Int32(parameterCount), nil) }
        prepared[sql] = name
        return name
    }

    private func run(
        _ connection: OpaquePointer, _ parameters: [PostgresValue],
        _ call: ([UnsafePointer<CChar>?], [Int32], [Int32]) -> OpaquePointer?
    ) throws -> PostgresRows {
        let result = ParameterBuffers(parameters).withPointers(call)
        defer { PQclear(result) }
        return try rows(of: result, connection: connection)
    }

    /// Runs a script of several statements with libpq's simple protocol.
    func executeScript(_ sql: String) throws {
        guard let connection else { throw PostgresError(.connectionFailed, "the database connection is closed") }
        _ = try run(connection, []) { _, _, _ in PQexec(connection, sql) }
    }

    private func rows(of result: OpaquePointer?, connection: OpaquePointer) throws -> PostgresRows {
        guard let result else { throw lostOrFailed(connection) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            let columnCount = Int(PQnfields(result)), rowCount = Int(PQntuples(result))
            let columns = (0..<columnCount).map { String(cString: PQfname(result, Int32($0))) }
            let values = (0..<rowCount).map { row in
                (0..<columnCount).map { column -> String? in
                    PQgetisnull(result, Int32(row), Int32(column)) == 1
                        ? nil : String(cString: PQgetvalue(result, Int32(row), Int32(column)))
                }
            }
            return PostgresRows(columns: columns, values: values, affectedRows: Int(String(cString: PQcmdTuples(result))) ?? 0)
        default:
            if PQstatus(connection) == CONNECTION_BAD { throw lostOrFailed(connection) }
            func field(_ code: Character) -> String? {
                PQresultErrorField(result, Int32(code.asciiValue!)).map { String(cString: $0) }
            }
            throw PostgresError(
                .server, "the database refused the statement", sqlState: field("C"),
                serverMessage: field("M") ?? lastMessage(of: connection), detail: field("D"), hint: field("H"))
        }
    }

    private func lostOrFailed(_ connection: OpaquePointer) -> PostgresError {
        PostgresError(.connectionLost, "the database connection was lost: \(lastMessage(of: connection))")
    }

    func listen(_ channel: String) throws {
        _ = try execute("LISTEN \(try quotedIdentifier(channel))", [])
        if !channels.contains(channel) { channels.append(channel) }
    }

    func nextNotification(timeout: Duration) throws -> PostgresNotification? {
        guard let connection else { throw PostgresError(.connectionFailed, "the database connection is closed") }
        if let queued = try consumeNotification(connection) { return queued }
        var descriptor = pollfd(fd: PQsocket(connection), events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return nil }
        return try consumeNotification(connection)
    }

    private func consumeNotification(_ connection: OpaquePointer) throws -> PostgresNotification? {
        guard PQconsumeInput(connection) == 1 else { throw lostOrFailed(connection) }
        guard let notify = PQnotifies(connection) else { return nil }
        defer { PQfreemem(notify) }
        return PostgresNotification(
            channel: String(cString: notify.pointee.relname), payload: String(cString: notify.pointee.extra))
    }

    private func quotedIdentifier(_ name: String) throws -> String {
        guard let connection, let escaped = PQescapeIdentifier(connection, name, name.utf8.count) else {
            throw PostgresError(.server, "\(name.debugDescription) is not a valid identifier")
        }
        defer { PQfreemem(escaped) }
        return String(cString: escaped)
    }

    /// libpq's last message on one line (it spreads some over several, indented).
    /// libpq's last message on one line, without the password.
    private func lastMessage(of connection: OpaquePointer) -> String {
        connectionString.redacting(String(cString: PQerrorMessage(connection)).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " "))
    }
}

/// C arrays for `PQexecParams`, alive for the duration of one call.
private struct ParameterBuffers {
    let parameters: [PostgresValue]

    init(_ parameters: [PostgresValue]) { self.parameters = parameters }

    func withPointers<R>(
        _ body: ([UnsafePointer<CChar>?], [Int32], [Int32]) -> R
    ) -> R {
        var storage: [UnsafeMutablePointer<CChar>?] = []
        defer { storage.forEach { free($0) } }
        var lengths: [Int32] = [], formats: [Int32] = []
        for parameter in parameters {
            switch parameter {
            case .text(let text):
                storage.append(strdup(text))
                lengths.append(0)
                formats.append(0)
            case .bytes(let bytes):
                let buffer = malloc(max(bytes.count, 1))!
                bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
                storage.append(buffer.assumingMemoryBound(to: CChar.self))
                lengths.append(Int32(bytes.count))
                formats.append(1)
            case .null:
                storage.append(nil)
                lengths.append(0)
                formats.append(0)
            }
        }
        return body(storage.map { UnsafePointer($0) }, lengths, formats)
    }
}
