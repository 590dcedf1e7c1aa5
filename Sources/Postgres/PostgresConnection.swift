import CLibPQ
import Dispatch

/// One connection to PostgreSQL through libpq.
///
/// libpq blocks while it waits for the server, so every call runs on the
/// connection's own serial queue, never on Swift's cooperative pool; the async
/// methods suspend until the queue has run them. That queue is also why the
/// class may be `@unchecked Sendable`: the `PGconn` is only touched there, one
/// call at a time.
///
/// A connection that breaks (the server restarted, the network dropped) fails
/// the statement that was under way with `connectionLost`; the next call
/// reconnects with the same settings and listens again on the same channels.
public final class PostgresConnection: PostgresClient, @unchecked Sendable {
    private let link: ConnectionLink
    private let queue: DispatchQueue

    private init(link: ConnectionLink, queue: DispatchQueue) {
        self.link = link
        self.queue = queue
    }

    /// Connects with a libpq connection string or URI
    /// (`postgresql://user@host/db`, `host=/run/pg dbname=spotter`).
    public static func connect(to url: String) async throws -> PostgresConnection {
        let queue = DispatchQueue(label: "spotter.postgres.connection")
        let link = try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try ConnectionLink(url: url) }) }
        }
        return PostgresConnection(link: link, queue: queue)
    }

    /// Runs `body` on the connection's queue with a session for synchronous
    /// statements; nothing else uses the connection meanwhile.
    public func withSession<T: Sendable>(_ body: @escaping @Sendable (PostgresSession) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { [link] in
                continuation.resume(with: Result {
                    try link.reconnectIfBroken()
                    return try body(PostgresSession(link: link))
                })
            }
        }
    }

    /// Starts listening for notifications on `channel` (kept across reconnects).
    public func listen(_ channel: String) async throws {
        try await withSession { session in
            try session.link.listen(channel)
        }
    }

    /// The next notification on a channel this connection listens on, waiting at
    /// most `timeout`; nil when none arrived in that time.
    public func nextNotification(timeout: Duration) async throws -> PostgresNotification? {
        try await withSession { session in try session.link.nextNotification(timeout: timeout) }
    }

    /// Closes the connection now rather than when the last reference goes.
    public func close() async {
        await withCheckedContinuation { continuation in
            queue.async { [link] in
                link.close()
                continuation.resume()
            }
        }
    }
}

/// A notification sent with `NOTIFY channel, 'payload'` or `pg_notify`.
public struct PostgresNotification: Sendable, Equatable {
    public var channel: String
    public var payload: String

    public init(channel: String, payload: String) {
        self.channel = channel
        self.payload = payload
    }
}
