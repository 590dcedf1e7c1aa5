extension LoopbackHTTPServer {
    /// What the server sends for a path: a status, headers and a body, and,
    /// to test clients against slow, lying and broken servers, a delay, a pace,
    /// chunked framing, a false Content-Length and a connection cut mid-body.
    public struct Response: Sendable {
        /// The status code; the reason phrase follows from it.
        public var status: Int
        /// Headers sent besides Content-Length or Transfer-Encoding and
        /// "Connection: close", which the server adds.
        public var headers: [(name: String, value: String)]
        /// The whole body; `closeAfter` may cut it short.
        public var body: [UInt8]
        /// How the end of the body is marked.
        public var framing: Framing = .contentLength
        /// A Content-Length to send instead of the body's size.
        public var declaredLength: Int?
        /// Closes the connection after this many body bytes, leaving the body
        /// (and for chunked framing, the chunks) unfinished.
        public var closeAfter: Int?
        /// A wait before the status line.
        public var delay: Duration = .zero
        /// Sends the body in pieces of this size with a pause after each; by
        /// default the body goes in pieces of 16 KiB without pauses.
        public var pace: Pace?

        /// A response sent at once, with Content-Length framing.
        public init(status: Int = 200, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// 200 with `body` and its Content-Type.
        public static func ok(_ body: [UInt8], contentType: String = "application/octet-stream") -> Response {
            Response(status: 200, headers: [("Content-Type", contentType)], body: body)
        }

        /// `status` (302 by default) with a Location header.
        public static func redirect(to location: String, status: Int = 302) -> Response {
            Response(status: status, headers: [("Location", location)])
        }

        /// `status` with a short plain-text body naming it.
        public static func status(_ status: Int) -> Response {
            Response(status: status, headers: [("Content-Type", "text/plain")], body: Array("status \(status)\n".utf8))
        }

        /// The end of the body: its length up front, or chunked transfer
        /// encoding with a chunk per piece and a last empty chunk.
        public enum Framing: Sendable {
            case contentLength
            case chunked
        }

        /// `bytes` at a time, with `interval` between them.
        public struct Pace: Sendable {
            /// The size of each piece, and of each chunk when chunked.
            public var bytes: Int
            /// The pause after each piece.
            public var interval: Duration

            public init(bytes: Int, interval: Duration) {
                self.bytes = bytes
                self.interval = interval
            }
        }
    }
}
