import Foundation
import TestSupport
import Testing
import Transfer

/// POSTs, as webhooks send them, to a real HTTP server on loopback.
@Suite("POST")
struct PostTests {
    let server: LoopbackHTTPServer
    let transfer = HTTPTransfer(addressPolicy: .allowingLoopback)

    init() throws {
        server = try LoopbackHTTPServer()
    }

    @Test("A POST sends its body and headers and returns the response")
    func posts() async throws {
        let json = Array(#"{"event":"analysis.completed","id":"a1"}"#.utf8)
        server.respond(
            to: "/hook",
            with: .init(status: 202, headers: [("Content-Type", "text/plain"), ("X-Reply", "yes")], body: Array("queued".utf8)))
        let response = try await transfer.post(
            to: server.url("/hook?tenant=7"),
            headers: [("Content-Type", "application/json"), ("X-Spotter-Signature", "sha256=abc")], body: json)
        #expect(response.status == 202)
        #expect(response.header("x-reply") == "yes")
        #expect(response.header("Content-Type") == "text/plain")
        #expect(response.body == Array("queued".utf8))
        #expect(!response.bodyWasTruncated)
        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.target == "/hook?tenant=7")
        #expect(request.body == json)
        #expect(request.header("content-type") == "application/json")
        #expect(request.header("X-Spotter-Signature") == "sha256=abc")
        #expect(request.header("Expect") == nil)
    }

    @Test("A large body goes without asking for 100-continue first")
    func largeBody() async throws {
        server.respond(to: "/hook", with: .status(200))
        let body = sampleBytes(2_000_000)
        let response = try await transfer.post(to: server.url("/hook"), body: body)
        #expect(response.status == 200)
        #expect(server.requests.first?.body == body)
        #expect(server.requests.first?.header("Expect") == nil)
    }

    @Test("An empty body is sent with Content-Length 0")
    func emptyBody() async throws {
        server.respond(to: "/hook", with: .status(204))
        let response = try await transfer.post(to: server.url("/hook"), body: [])
        #expect(response.status == 204)
        #expect(server.requests.first?.header("Content-Length") == "0")
    }

    @Test("Error statuses and redirects are responses, not errors", arguments: [302, 404, 500, 503])
    func statuses(status: Int) async throws {
        let answer: LoopbackHTTPServer.Response = status == 302 ? .redirect(to: "/elsewhere") : .status(status)
        server.respond(to: "/hook", with: answer)
        let response = try await transfer.post(to: server.url("/hook"), body: [1, 2, 3])
        #expect(response.status == status)
        #expect(server.requests.count == 1)
    }

    @Test("The response body is cut at the limit")
    func truncatedResponse() async throws {
        server.respond(to: "/hook", with: .ok(sampleBytes(200_000)))
        let response = try await transfer.post(to: server.url("/hook"), body: [1], responseBodyLimit: 1000)
        #expect(response.status == 200)
        #expect(response.body == Array(sampleBytes(200_000).prefix(1000)))
        #expect(response.bodyWasTruncated)
    }

    @Test("A receiver slower than the timeout is a retryable timeout")
    func timeout() async throws {
        var response = LoopbackHTTPServer.Response.status(200)
        response.delay = .seconds(3)
        server.respond(to: "/hook", with: response)
        let error = await transferError {
            try await transfer.post(to: server.url("/hook"), body: [1], timeout: .milliseconds(500))
        }
        #expect(error?.code == .timedOut)
        #expect(error?.isRetryable == true)
        #expect(error?.message.hasPrefix("cannot POST to \(server.url("/hook")): timed out") == true)
    }

    @Test(
        "Headers that could smuggle others in are refused before sending",
        arguments: [("X-Evil", "a\r\nX-Injected: 1"), ("X-Evil", "a\nb"), ("Bad Name", "x"), ("", "x"), ("X:Y", "x")])
    func invalidHeaders(name: String, value: String) async throws {
        server.respond(to: "/hook", with: .status(200))
        let error = await transferError {
            try await transfer.post(to: server.url("/hook"), headers: [(name, value)], body: [1])
        }
        #expect(error?.code == .invalidHeader)
        #expect(error?.isRetryable == false)
        #expect(server.requests.isEmpty)
    }
}
