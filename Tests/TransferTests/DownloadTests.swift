import Foundation
import TestSupport
import Testing
import Transfer

/// Downloads through libcurl from a real HTTP server on loopback: the body
/// lands whole or not at all, within the limits.
@Suite("Downloads")
struct DownloadTests {
    let server: LoopbackHTTPServer
    let directory: DownloadDirectory
    let transfer = HTTPTransfer(addressPolicy: .allowingLoopback)

    init() throws {
        server = try LoopbackHTTPServer()
        directory = try DownloadDirectory()
    }

    @Test("A download writes the body and reports status, type and size")
    func downloads() async throws {
        let body = sampleBytes(300_000)
        server.respond(to: "/video.mp4", with: .ok(body, contentType: "video/mp4"))
        let result = try await transfer.download(from: server.url("/video.mp4"), to: directory.file("video.mp4"))
        #expect(try directory.bytes("video.mp4") == body)
        #expect(directory.contents == ["video.mp4"])
        #expect(result.bytes == Int64(body.count))
        #expect(result.httpStatus == 200)
        #expect(result.contentType == "video/mp4")
        #expect(result.finalURL == server.url("/video.mp4"))
        #expect(server.requests.map(\.method) == ["GET"])
        #expect(server.requests.first?.header("User-Agent") == "Spotter")
    }

    @Test("A chunked body of exactly the limit is accepted")
    func atTheLimit() async throws {
        var response = LoopbackHTTPServer.Response.ok(sampleBytes(4096))
        response.framing = .chunked
        response.pace = .init(bytes: 1000, interval: .zero)
        server.respond(to: "/video.mp4", with: response)
        let result = try await transfer.download(
            from: server.url("/video.mp4"), to: directory.file("video.mp4"), limits: DownloadLimits(maxBytes: 4096))
        #expect(result.bytes == 4096)
        #expect(try directory.bytes("video.mp4") == response.body)
    }

    @Test("A Content-Length over the limit is refused before the body")
    func tooLargeByContentLength() async throws {
        var response = LoopbackHTTPServer.Response.ok(sampleBytes(100))
        response.declaredLength = 10_000
        server.respond(to: "/big.mp4", with: response)
        let error = await transferError {
            try await transfer.download(
                from: server.url("/big.mp4"), to: directory.file("big.mp4"), limits: DownloadLimits(maxBytes: 1000))
        }
        #expect(error?.code == .tooLarge)
        #expect(error?.message.contains("announces 10000 bytes, over the limit of 1000 bytes") == true, "\(String(describing: error))")
        #expect(error?.isRetryable == false)
        #expect(directory.contents.isEmpty)
    }

    @Test("A body without a length stops as soon as it passes the limit")
    func tooLargeWhileStreaming() async throws {
        var response = LoopbackHTTPServer.Response.ok(sampleBytes(50_000))  // 5 s in all
        response.framing = .chunked
        response.pace = .init(bytes: 1000, interval: .milliseconds(100))
        server.respond(to: "/endless.mp4", with: response)
        let error = await transferError {
            try await transfer.download(
                from: server.url("/endless.mp4"), to: directory.file("endless.mp4"), limits: DownloadLimits(maxBytes: 4500))
        }
        #expect(error?.code == .tooLarge)
        #expect(error?.message.contains("larger than the limit of 4500 bytes") == true)
        #expect(error?.isRetryable == false)
        #expect(directory.contents.isEmpty)
    }

    @Test(
        "A status other than 2xx is an error naming the URL and the status",
        arguments: [(404, false), (403, false), (410, false), (408, true), (429, true), (500, true), (503, true)])
    func statuses(status: Int, retryable: Bool) async throws {
        server.respond(to: "/video.mp4", with: .status(status))
        let error = await transferError {
            try await transfer.download(from: server.url("/video.mp4?token=s3cret"), to: directory.file("video.mp4"))
        }
        #expect(error?.code == .httpStatus)
        #expect(error?.httpStatus == status)
        #expect(error?.isRetryable == retryable)
        #expect(error?.message == "cannot download \(server.url("/video.mp4")): the server answered HTTP \(status)")
        #expect(directory.contents.isEmpty)
    }

    @Test("A failed download leaves an earlier file at the destination as it was")
    func keepsEarlierFile() async throws {
        let destination = directory.file("video.mp4")
        try Data("earlier".utf8).write(to: URL(fileURLWithPath: destination))
        server.respond(to: "/video.mp4", with: .status(500))
        _ = await transferError { try await transfer.download(from: server.url("/video.mp4"), to: destination) }
        #expect(try directory.bytes("video.mp4") == Array("earlier".utf8))
        #expect(directory.contents == ["video.mp4"])
    }

    @Test("Credentials and query never appear in messages")
    func redactsCredentials() async throws {
        let url = "http://alice:hunter2@127.0.0.1:\(server.port)/missing.mp4?X-Amz-Signature=abcdef#frag"
        let error = await transferError { try await transfer.download(from: url, to: directory.file("v.mp4")) }
        let text = try #require(error).description
        #expect(text.contains("http://127.0.0.1:\(server.port)/missing.mp4"))
        for secret in ["alice", "hunter2", "abcdef", "frag"] { #expect(!text.contains(secret), "\(secret) in \(text)") }
        #expect(server.requests.first?.header("Authorization") != nil)
    }

    @Test("The destination's directory must exist")
    func missingDirectory() async throws {
        server.respond(to: "/video.mp4", with: .ok(sampleBytes(10)))
        let destination = directory.file("absent/video.mp4")
        let error = await transferError { try await transfer.download(from: server.url("/video.mp4"), to: destination) }
        #expect(error?.code == .fileSystem)
        #expect(error?.message.contains("cannot create a file beside \(destination): No such file or directory") == true)
        #expect(server.requests.isEmpty)
    }
}
