import Foundation
import Glibc
import TestSupport
import Testing
import Transfer

/// Slow, broken and unreachable servers: each failure is classified as
/// retryable or not, and leaves no file behind.
@Suite("Download failures")
struct DownloadFailureTests {
    let server: LoopbackHTTPServer
    let directory: DownloadDirectory
    let transfer = HTTPTransfer(addressPolicy: .allowingLoopback)

    init() throws {
        server = try LoopbackHTTPServer()
        directory = try DownloadDirectory()
    }

    /// A 10 kB body at 100 bytes a second.
    func trickle() -> LoopbackHTTPServer.Response {
        var response = LoopbackHTTPServer.Response.ok(sampleBytes(10_000))
        response.pace = .init(bytes: 10, interval: .milliseconds(100))
        return response
    }

    @Test("A body that trickles past the total timeout is a retryable timeout")
    func totalTimeout() async throws {
        server.respond(to: "/slow.mp4", with: trickle())
        let error = await transferError {
            try await transfer.download(
                from: server.url("/slow.mp4"), to: directory.file("slow.mp4"),
                limits: DownloadLimits(totalTimeout: .seconds(1), lowSpeed: nil))
        }
        #expect(error?.code == .timedOut)
        #expect(error?.isRetryable == true)
        #expect(error?.curlMessage?.contains("timed out") == true)
        #expect(directory.contents.isEmpty)
    }

    @Test("A transfer under the low-speed limit is a retryable timeout")
    func lowSpeed() async throws {
        server.respond(to: "/slow.mp4", with: trickle())
        let error = await transferError {
            try await transfer.download(
                from: server.url("/slow.mp4"), to: directory.file("slow.mp4"),
                limits: DownloadLimits(lowSpeed: LowSpeedLimit(bytesPerSecond: 1000, seconds: 1)))
        }
        #expect(error?.code == .timedOut)
        #expect(error?.isRetryable == true)
        #expect(error?.curlMessage?.contains("too slow") == true)
        #expect(directory.contents.isEmpty)
    }

    @Test("A server that waits before answering runs into the total timeout")
    func silentServer() async throws {
        var response = LoopbackHTTPServer.Response.ok(sampleBytes(10))
        response.delay = .seconds(3)
        server.respond(to: "/silent.mp4", with: response)
        let error = await transferError {
            try await transfer.download(
                from: server.url("/silent.mp4"), to: directory.file("silent.mp4"),
                limits: DownloadLimits(totalTimeout: .milliseconds(500)))
        }
        #expect(error?.code == .timedOut)
        #expect(directory.contents.isEmpty)
    }

    @Test(
        "A connection closed mid-body is retryable, with a length or chunked",
        arguments: [LoopbackHTTPServer.Response.Framing.contentLength, .chunked])
    func closedMidBody(framing: LoopbackHTTPServer.Response.Framing) async throws {
        var response = LoopbackHTTPServer.Response.ok(sampleBytes(100_000))
        response.framing = framing
        response.closeAfter = 50_000
        server.respond(to: "/cut.mp4", with: response)
        let error = await transferError {
            try await transfer.download(from: server.url("/cut.mp4"), to: directory.file("cut.mp4"))
        }
        #expect(error?.code == .connectionLost)
        #expect(error?.isRetryable == true)
        #expect(directory.contents.isEmpty)
    }

    @Test("A Content-Length longer than the body is a lost connection")
    func contentLengthLie() async throws {
        var response = LoopbackHTTPServer.Response.ok(sampleBytes(500))
        response.declaredLength = 1000
        server.respond(to: "/short.mp4", with: response)
        let error = await transferError {
            try await transfer.download(from: server.url("/short.mp4"), to: directory.file("short.mp4"))
        }
        #expect(error?.code == .connectionLost)
        #expect(directory.contents.isEmpty)
    }

    @Test("A port nobody listens on is a retryable failure to connect")
    func connectionRefused() async throws {
        // A socket bound to a port but not listening: connections are refused, and
        // the port stays this test's (a closed server's port could be reused by another test).
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(socket >= 0)
        defer { Glibc.close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        try #require(bound)
        let url = "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/video.mp4"
        let error = await transferError { try await transfer.download(from: url, to: directory.file("video.mp4")) }
        #expect(error?.code == .couldNotConnect)
        #expect(error?.isRetryable == true)
        #expect(directory.contents.isEmpty)
    }

    @Test("Cancelling the task stops the transfer and removes the partial file")
    func cancellation() async throws {
        server.respond(to: "/slow.mp4", with: trickle())
        let download = Task { [transfer, directory, server] in
            try await transfer.download(from: server.url("/slow.mp4"), to: directory.file("slow.mp4"))
        }
        try await Task.sleep(for: .milliseconds(300))
        download.cancel()
        await #expect(throws: CancellationError.self) { try await download.value }
        #expect(directory.contents.isEmpty)
    }
}
