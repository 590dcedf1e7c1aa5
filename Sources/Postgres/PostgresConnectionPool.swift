/// A small bounded pool of connections, for callers that run at once (the
/// requests of an API server): one `PostgresConnection` runs one statement at a
/// time, so concurrent callers would otherwise queue behind each other.
///
/// `withConnection` lends a connection to one caller for the length of its
/// body and takes it back on every path, thrown errors and cancellation
/// included. Connections are made when first needed, up to `size`; one whose
/// connection broke (`connectionLost`, `connectionFailed`) is closed and
/// replaced by a fresh one the next time. When every connection is lent, a
/// caller waits its turn in order, for at most `waitLimit`, and then fails with
/// `PostgresError.Code.busy`.
public actor PostgresConnectionPool {
    public let url: String
    public let size: Int
    public let waitLimit: Duration

    private var idle: [PostgresConnection] = []
    private var lent = 0
    private var waiters: [(id: Int, continuation: CheckedContinuation<PostgresConnection?, any Error>)] = []
    private var nextWaiter = 0
    private var closed = false

    /// A pool for the database at `url` (a libpq URI or connection string).
    public init(url: String, size: Int = 4, waitLimit: Duration = .seconds(5)) {
        precondition(size > 0, "a pool holds at least one connection")
        self.url = url
        self.size = size
        self.waitLimit = waitLimit
    }

    /// Connections lent right now, and made but idle.
    public var usage: (lent: Int, idle: Int) { (lent, idle.count) }

    /// Runs `body` with a connection of the pool's own; it is given back however `body` ends.
    public func withConnection<T: Sendable>(
        _ body: @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let connection = try await checkOut()
        do {
            let value = try await body(connection)
            checkIn(connection, broken: false)
            return value
        } catch {
            let broken = (error as? PostgresError).map { $0.code == .connectionLost || $0.code == .connectionFailed } ?? false
            checkIn(connection, broken: broken)
            throw error
        }
    }

    /// Closes every idle connection and refuses new loans; lent ones are closed when given back.
    public func close() async {
        closed = true
        let connections = idle
        idle = []
        for waiter in waiters { waiter.continuation.resume(throwing: Self.closedError()) }
        waiters = []
        for connection in connections { await connection.close() }
    }

    private func checkOut() async throws -> PostgresConnection {
        guard !closed else { throw Self.closedError() }
        if let connection = idle.popLast() {
            lent += 1
            return connection
        }
        if lent + idle.count < size {
            lent += 1
            return try await connectInLentSlot()
        }
        let id = nextWaiter
        nextWaiter += 1
        let deadline = Task { [waitLimit] in
            try await Task.sleep(for: waitLimit)
            self.timeOut(id)
        }
        defer { deadline.cancel() }
        // A waiter is handed an idle connection, or nil: a slot freed for a new one.
        let handed = try await withCheckedThrowingContinuation { continuation in
            waiters.append((id, continuation))
        }
        if let handed { return handed }
        return try await connectInLentSlot()
    }

    /// A new connection for a slot already counted as lent; the slot is freed again if connecting fails.
    private func connectInLentSlot() async throws -> PostgresConnection {
        do {
            return try await PostgresConnection.connect(to: url)
        } catch {
            lent -= 1
            handOnSlot()
            throw error
        }
    }

    private func checkIn(_ connection: PostgresConnection, broken: Bool) {
        if broken || closed {
            lent -= 1
            Task { await connection.close() }
            if !closed { handOnSlot() }
            return
        }
        if !waiters.isEmpty {
            waiters.removeFirst().continuation.resume(returning: connection)  // stays lent, to the next caller
        } else {
            lent -= 1
            idle.append(connection)
        }
    }

    /// A slot is free for a new connection: the first waiter takes it.
    private func handOnSlot() {
        guard !waiters.isEmpty else { return }
        lent += 1
        waiters.removeFirst().continuation.resume(returning: nil)
    }

    private func timeOut(_ id: Int) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(throwing: PostgresError(
            .busy, "every database connection of the pool (\(size)) stayed busy for \(waitLimit)"))
    }

    private static func closedError() -> PostgresError {
        PostgresError(.connectionFailed, "the connection pool is closed")
    }
}
