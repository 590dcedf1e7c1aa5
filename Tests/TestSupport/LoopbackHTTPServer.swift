import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// An HTTP/1.1 server on 127.0.0.1 for tests of HTTP clients: it answers
/// each path with the `Response` set for it, 404 for any other, and records
/// every request it receives.
///
/// It listens on an ephemeral port and serves each connection on a thread of
/// its own, one request per connection, which it closes after the response.
/// Request bodies are read by their Content-Length. It stops when `stop()` is
/// called or when it is deallocated.
///
///     let server = try LoopbackHTTPServer()
///     server.respond(to: "/video.mp4", with: .ok(bytes, contentType: "video/mp4"))
///     // fetch server.url("/video.mp4"), then look at server.requests
public final class LoopbackHTTPServer: Sendable {
    /// The port the server listens on, on 127.0.0.1.
    public let port: UInt16
    private let state: LoopbackServerState
    private let listener: Int32

    /// Starts listening on 127.0.0.1 on a port the system picks.
    public init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw ServerError("socket", errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(listener, address, length) == 0 && listen(listener, 64) == 0
                    && getsockname(listener, address, &length) == 0
            }
        }
        guard bound else {
            let error = ServerError("bind or listen on 127.0.0.1", errno)
            close(listener)
            throw error
        }
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)
        state = LoopbackServerState()
        let (state, acceptingOn) = (state, listener)
        Thread.detachNewThread { state.acceptConnections(on: acceptingOn) }
    }

    deinit { stop() }

    /// "http://127.0.0.1:PORT" followed by `pathAndQuery`, such as "/video.mp4?token=1".
    public func url(_ pathAndQuery: String) -> String {
        "http://127.0.0.1:\(port)\(pathAndQuery)"
    }

    /// Answers requests for `path` (without query) with `response` from now on.
    public func respond(to path: String, with response: Response) {
        state.responses.withLock { $0[path] = response }
    }

    /// The requests received so far, in the order their bodies arrived.
    public var requests: [Request] {
        state.requests.withLock { $0 }
    }

    /// Stops accepting connections; those in progress finish on their own.
    public func stop() {
        guard !state.stopped.exchange(true, ordering: .relaxed) else { return }
        shutdown(listener, Int32(SHUT_RDWR))  // wakes the accepting thread, which closes the socket
    }

    /// A request as the server received it.
    public struct Request: Sendable {
        /// "GET", "POST", ….
        public var method: String
        /// The request target as sent: the path and any query.
        public var target: String
        /// The headers in the order received.
        public var headers: [(name: String, value: String)]
        /// The body, as many bytes as Content-Length said.
        public var body: [UInt8]
        /// When it had arrived whole.
        public var receivedAt: Date

        /// The path of `target`, without its query.
        public var path: String { String(target.prefix { $0 != "?" }) }

        /// The value of the first header named `name`, ignoring case.
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// A failure to set up the listening socket.
    public struct ServerError: Error, CustomStringConvertible {
        public let description: String
        init(_ call: String, _ code: Int32) {
            description = "LoopbackHTTPServer: \(call) failed: \(String(cString: strerror(code)))"
        }
    }
}

/// What the accepting and connection threads share with the server.
final class LoopbackServerState: Sendable {
    let responses = Mutex<[String: LoopbackHTTPServer.Response]>([:])
    let requests = Mutex<[LoopbackHTTPServer.Request]>([])
    let stopped = Atomic(false)

    func acceptConnections(on listener: Int32) {
        while true {
            let connection = accept(listener, nil, nil)
            if connection >= 0 {
                _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
                Thread.detachNewThread { self.serve(connection) }
            } else if stopped.load(ordering: .relaxed) {
                break
            } else if errno != EINTR && errno != ECONNABORTED {
                usleep(1000)  // out of descriptors, say: try again shortly
            }
        }
        close(listener)
    }

    /// Reads one request on `connection`, records it, sends the response set
    /// for its path and closes the connection.
    func serve(_ connection: Int32) {
        let socket = LoopbackConnection(connection)
        guard let request = socket.readRequest() else { return }
        requests.withLock { $0.append(request) }
        let response = responses.withLock { $0[request.path] } ?? .status(404)
        socket.respond(with: response)
    }
}
