import Crypto
import Foundation
import Glibc
import LandmarkTracks
import Server
import Storage
import Store
import SyntheticMotion
import Testing
import TestSupport

/// Uploads through the real server: streamed into a content-addressed
/// directory, recognised by their first bytes, limited while they arrive, and
/// fetched back only through a signed, unexpired URL.
@Suite("Uploading videos and tracks", .timeLimit(.minutes(5)))
struct UploadTests {
    /// A fresh storage directory, a random signing key, and small limits.
    static func uploads() throws -> Uploads {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-uploads-\(UUID())").path
        var uploads = Uploads(store: try ContentStore(directory: directory), signing: StorageSigning(key: Data((0..<32).map { _ in UInt8.random(in: 0...255) })))
        uploads.maxVideoBytes = 1 << 20
        uploads.maxTrackBytes = 8 << 20
        return uploads
    }

    /// Every file under the store's `sha256/`.
    static func stored(_ uploads: Uploads) -> [String] {
        (FileManager.default.enumerator(atPath: uploads.store.directory)?.allObjects as? [String] ?? [])
            .filter { !$0.hasSuffix("sha256") && $0.split(separator: "/").count == 3 }
    }

    static func video(_ headers: [String: String] = [:]) -> [String: String] {
        ["Content-Type": "video/mp4"].merging(headers) { $1 }
    }

    @Test("a video is stored under its SHA-256, its session queued, and a worker's signed URL gives its bytes back", .postgresDatabase)
    func video() async throws {
        let uploads = try Self.uploads()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: TestAssets.photo("mannequin-squat.mp4")))
        try await APIServerTests.withServer(uploads: uploads) { connection, call in
            let (key, _) = try await APIServerTests.key(connection, organization: "Uploaders")
            let made = try await call("POST", "/v1/sessions?exercise=squat&athlete=ana", key, bytes, Self.video(["Idempotency-Key": "clip-1"]))
            #expect(made.status == 202 && made.json["status"] as? String == "queued", "\(made.text)")
            let again = try await call("POST", "/v1/sessions?exercise=squat&athlete=ana", key, bytes, Self.video(["Idempotency-Key": "clip-1"]))
            #expect(again.json["id"] as? String == made.json["id"] as? String)

            let digest = try #require(ContentDigest(hex: SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()))
            #expect(Self.stored(uploads) == ["sha256/\(digest.hex.prefix(2))/\(digest.hex)"], "one file, whatever the retries")
            #expect(try Data(contentsOf: URL(fileURLWithPath: try #require(uploads.store.path(of: digest)))) == bytes)
            let claimed = try #require(try await JobQueue(connection: connection).claim(worker: "test"))
            #expect(claimed.sourceURI == digest.sourceURI && claimed.job.kind == .analyzeVideo)

            let good = uploads.signing.path(for: digest, expires: Date().addingTimeInterval(60))
            let fetched = try await call("GET", good, nil, nil, [:])
            #expect(fetched.status == 200 && fetched.body == bytes, "no API key needed: the signature is the permission")
            let expired = uploads.signing.path(for: digest, expires: Date().addingTimeInterval(-1))
            let otherKey = StorageSigning(key: Data(repeating: 7, count: 32)).path(for: digest, expires: Date().addingTimeInterval(60))
            let unknown = uploads.signing.path(for: ContentDigest(hex: String(repeating: "a", count: 64))!, expires: Date().addingTimeInterval(60))
            for path in [expired, otherKey, unknown, "/v1/storage/\(digest.hex)", good.replacingOccurrences(of: "expires=", with: "expires=1")] {
                let refused = try await call("GET", path, nil, nil, [:])
                #expect(refused.status == 404 && refused.json["type"] as? String == "urn:spotter:problem:not-found", "\(path)")
            }
        }
    }

    @Test("what is not a video, an upload over the limit and an empty body are refused, and nothing is kept", .postgresDatabase)
    func refused() async throws {
        let uploads = try Self.uploads()
        try await APIServerTests.withServer(uploads: uploads) { connection, call in
            let (key, _) = try await APIServerTests.key(connection, organization: "Uploaders")
            let pdf = Data("%PDF-1.7\n%âãÏÓ\n1 0 obj\n<< /Type /Catalog >>\nendobj\n".utf8) + Data(repeating: 0x20, count: 100_000)
            let notVideo = try await call("POST", "/v1/sessions?exercise=squat", key, pdf, Self.video())
            #expect(notVideo.status == 415 && notVideo.json["type"] as? String == "urn:spotter:problem:unsupported-media-type", "\(notVideo.text)")
            // An MP4's first bytes, then more than the 1 MiB limit.
            let big = try Data(contentsOf: URL(fileURLWithPath: TestAssets.photo("mannequin-squat.mp4"))).prefix(64) + Data(count: 2 << 20)
            let tooBig = try await call("POST", "/v1/sessions?exercise=squat", key, big, Self.video())
            #expect(tooBig.status == 413 && tooBig.json["type"] as? String == "urn:spotter:problem:too-large", "\(tooBig.text)")
            let empty = try await call("POST", "/v1/sessions?exercise=squat", key, Data(), Self.video())
            #expect(empty.status == 400, "\(empty.text)")
            let noExercise = try await call("POST", "/v1/sessions", key, Data("RIFF".utf8), Self.video())
            #expect(noExercise.status == 400)
            let unknownExercise = try await call("POST", "/v1/sessions?exercise=burpee", key, Data("RIFF".utf8), Self.video())
            #expect(unknownExercise.status == 422 && unknownExercise.json["type"] as? String == "urn:spotter:problem:unknown-exercise")
            let wrongType = try await call("POST", "/v1/sessions?exercise=squat", key, Data("x".utf8), ["Content-Type": "application/pdf"])
            #expect(wrongType.status == 415)
            #expect(Self.stored(uploads).isEmpty)
            let files = try FileManager.default.contentsOfDirectory(atPath: uploads.store.directory)
            #expect(files == ["sha256"], "no partial upload left behind: \(files)")
            #expect(try await JobQueue(connection: connection).claim(worker: "test") == nil, "no job made")
        }
    }

    @Test("a landmark track is queued to be scored without models; a bad one is refused with its line", .postgresDatabase)
    func track() async throws {
        let uploads = try Self.uploads()
        var conditions = SetConditions()
        conditions.reps = 3
        let lines = String(decoding: try LandmarkTrackWriter.jsonLines(of: SyntheticSessions.make("squat", conditions, seed: 3).track), as: UTF8.self)
        try await APIServerTests.withServer(uploads: uploads) { connection, call in
            let (key, _) = try await APIServerTests.key(connection, organization: "Uploaders")
            let ndjson = ["Content-Type": "application/x-ndjson"]
            let made = try await call("POST", "/v1/sessions?exercise=squat", key, Data(lines.utf8), ndjson)
            #expect(made.status == 202, "\(made.text)")
            let claimed = try #require(try await JobQueue(connection: connection).claim(worker: "test"))
            #expect(claimed.job.kind == .scoreTrack && claimed.sourceURI.hasPrefix("spotter-storage:sha256:"))

            var broken = lines.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            broken[3] = #"{"t_ms": "soon", "poses": []}"#
            let bad = try await call("POST", "/v1/sessions?exercise=squat", key, Data(broken.joined(separator: "\n").utf8), ndjson)
            #expect(bad.status == 422 && bad.json["type"] as? String == "urn:spotter:problem:invalid-track", "\(bad.text)")
            #expect((bad.json["detail"] as? String ?? "").hasPrefix("line 4: "), "\(bad.text)")
            #expect(!bad.text.contains(uploads.store.directory), "no server path in the answer")
            let notTrack = try await call("POST", "/v1/sessions?exercise=squat", key, Data("%PDF-1.7".utf8), ndjson)
            #expect(notTrack.status == 415)
            #expect(Self.stored(uploads).count == 1, "only the good track is kept")
        }
    }

    @Test("a server without storage refuses uploads and still takes video_url sessions", .postgresDatabase)
    func withoutStorage() async throws {
        try await APIServerTests.withServer { connection, call in
            let (key, _) = try await APIServerTests.key(connection, organization: "Uploaders")
            let answer = try await call("POST", "/v1/sessions?exercise=squat", key, Data("RIFF".utf8), Self.video())
            #expect(answer.status == 503 && answer.json["type"] as? String == "urn:spotter:problem:uploads-disabled", "\(answer.text)")
        }
    }

    @Test("an upload that stalls is cut off after the idle time, and nothing of it is kept", .postgresDatabase)
    func stalled() async throws {
        let uploads = try Self.uploads()
        let listening = APIServerTests.Listening()
        try await APIServerTests.withServer(uploads: uploads, idleTimeout: .seconds(1), listening: listening) { connection, _ in
            let (key, _) = try await APIServerTests.key(connection, organization: "Uploaders")
            let lead = try Data(contentsOf: URL(fileURLWithPath: TestAssets.photo("mannequin-squat.mp4"))).prefix(4096)
            let head = "POST /v1/sessions?exercise=squat HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(key)\r\n"
                + "Content-Type: video/mp4\r\nContent-Length: 1000000\r\n\r\n"
            // 4 KiB of a promised megabyte, then silence: the server must close the connection.
            let port = listening.port, request = Data(head.utf8) + lead
            let exchange = try await withCheckedThrowingContinuation { continuation in
                Thread.detachNewThread { continuation.resume(with: Result { try RawHTTP.exchange(port: port, request, waitingUpTo: 60) }) }
            }
            #expect(exchange.closedByServer, "the server, not our 60 s wait, ended it: \(exchange.answer)")
            let left = try await Self.leftovers(uploads)
            #expect(Self.stored(uploads).isEmpty && left == ["sha256"], "\(left)")
            #expect(try await JobQueue(connection: connection).claim(worker: "test") == nil, "no job made")
        }
    }

    @Test("an upload sent too slowly to finish within the request time limit (never idle) is answered 408 and leaves nothing", .postgresDatabase)
    func trickled() async throws {
        let uploads = try Self.uploads()
        let listening = APIServerTests.Listening()
        try await APIServerTests.withServer(
            uploads: uploads, requestTimeLimit: (.seconds(1), .seconds(1)), listening: listening
        ) { connection, _ in
            let (key, _) = try await APIServerTests.key(connection, organization: "Uploaders")
            // A real video's bytes four times over: 2 KiB every 100 ms is never idle, but all of it would take 40 s.
            let clip = try Data(contentsOf: URL(fileURLWithPath: TestAssets.photo("mannequin-squat.mp4")))
            let video = Data([Data](repeating: clip, count: 4).joined())
            let head = "POST /v1/sessions?exercise=squat HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(key)\r\n"
                + "Content-Type: video/mp4\r\nContent-Length: \(video.count)\r\n\r\n"
            let port = listening.port
            let exchange = try await withCheckedThrowingContinuation { continuation in
                Thread.detachNewThread {
                    continuation.resume(with: Result {
                        try RawHTTP.trickle(port: port, head: Data(head.utf8), body: video, chunk: 2048, every: .milliseconds(100), waitingUpTo: 60)
                    })
                }
            }
            let answer = exchange.answer
            #expect(answer.hasPrefix("HTTP/1.1 408") && answer.contains("urn:spotter:problem:request-timeout"), "\(answer.prefix(400))")
            #expect(exchange.bodySent < video.count, "answered before the body was through: \(exchange.bodySent) of \(video.count) bytes")
            let left = try await Self.leftovers(uploads)
            #expect(Self.stored(uploads).isEmpty && left == ["sha256"], "\(left)")
            #expect(try await JobQueue(connection: connection).claim(worker: "test") == nil, "no job made")
        }
    }
}

extension UploadTests {
    /// The storage directory's entries once nothing but `sha256` is left, or as
    /// they are after 10 s: the server's side of a cut-off upload ends on its
    /// own schedule (a loaded machine may take a while).
    static func leftovers(_ uploads: Uploads) async throws -> [String] {
        var left: [String] = []
        for _ in 0..<100 {
            left = try FileManager.default.contentsOfDirectory(atPath: uploads.store.directory)
            if left == ["sha256"] { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        return left
    }
}

/// HTTP by hand, for what URLSession will not do (stop sending mid-body).
enum RawHTTP {
    /// What one hand-made exchange saw.
    struct Exchange {
        /// The bytes the server answered, as text.
        var answer: String
        /// Whether the server ended the connection (rather than the client's wait running out).
        var closedByServer: Bool
        /// How many bytes were sent before the exchange ended: of the body, for
        /// `trickle`; the whole request, for `exchange`.
        var bodySent: Int
    }

    /// Sends `bytes` to 127.0.0.1:`port` and reads until the server closes the
    /// connection (or `seconds` pass).
    static func exchange(port: Int, _ bytes: Data, waitingUpTo seconds: Int) throws -> Exchange {
        let socket = try connected(port: port)
        defer { close(socket) }
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = bytes.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
        var answer = Data(), buffer = [UInt8](repeating: 0, count: 4096)
        var count = 0
        repeat {
            count = recv(socket, &buffer, buffer.count, 0)
            if count > 0 { answer += buffer[..<count] }
        } while count > 0
        let closed = count == 0 || errno == ECONNRESET
        return Exchange(answer: String(decoding: answer, as: UTF8.self), closedByServer: closed, bodySent: bytes.count)
    }

    /// A TCP socket connected to 127.0.0.1:`port`.
    static func connected(port: Int) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(socket)
            throw POSIXError(.ECONNREFUSED)
        }
        return socket
    }

    /// Sends `head`, then `body` `chunk` bytes at a time every `interval`
    /// until the server answers (or closes, or `seconds` pass).
    static func trickle(port: Int, head: Data, body: Data, chunk: Int, every interval: Duration, waitingUpTo seconds: Int) throws -> Exchange {
        let socket = try connected(port: port)
        defer { close(socket) }
        _ = head.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var answer = Data(), buffer = [UInt8](repeating: 0, count: 4096), offset = 0, closed = false
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if offset < body.count {
                let piece = body[(body.startIndex + offset)..<(body.startIndex + min(offset + chunk, body.count))]
                if piece.withUnsafeBytes({ send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) < 0 {
                    closed = true
                    break
                }
                offset += piece.count
            }
            Thread.sleep(forTimeInterval: Double(interval.components.attoseconds) / 1e18 + Double(interval.components.seconds))
            let count = recv(socket, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count > 0 { answer += buffer[..<count] } else if count == 0 {
                closed = true
                break
            }
            if String(decoding: answer, as: UTF8.self).contains("\r\n\r\n"), answer.count > 200 { break }
        }
        return Exchange(answer: String(decoding: answer, as: UTF8.self), closedByServer: closed, bodySent: offset)
    }
}
