import Foundation
import TestSupport
import Testing
import Transfer

/// Redirects are followed within the limit, and only to http and https.
@Suite("Redirects")
struct RedirectTests {
    let server: LoopbackHTTPServer
    let directory: DownloadDirectory
    let transfer = HTTPTransfer(addressPolicy: .allowingLoopback)

    init() throws {
        server = try LoopbackHTTPServer()
        directory = try DownloadDirectory()
    }

    @Test("Redirects within the limit are followed to the body")
    func followed() async throws {
        let body = sampleBytes(1000)
        server.respond(to: "/first", with: .redirect(to: "/second", status: 301))
        server.respond(to: "/second", with: .redirect(to: server.url("/video.mp4")))
        server.respond(to: "/video.mp4", with: .ok(body, contentType: "video/mp4"))
        let result = try await transfer.download(
            from: server.url("/first"), to: directory.file("video.mp4"), limits: DownloadLimits(maxRedirects: 2))
        #expect(result.finalURL == server.url("/video.mp4"))
        #expect(try directory.bytes("video.mp4") == body)
        #expect(server.requests.map(\.path) == ["/first", "/second", "/video.mp4"])
    }

    @Test("More redirects than the limit are refused")
    func tooMany() async throws {
        server.respond(to: "/loop", with: .redirect(to: "/loop"))
        let error = await transferError {
            try await transfer.download(
                from: server.url("/loop"), to: directory.file("video.mp4"), limits: DownloadLimits(maxRedirects: 3))
        }
        #expect(error?.code == .tooManyRedirects)
        #expect(error?.isRetryable == false)
        #expect(server.requests.count == 4)
        #expect(directory.contents.isEmpty)
    }

    @Test("A redirect to file:// is refused without reading the file")
    func toFile() async throws {
        server.respond(to: "/video.mp4", with: .redirect(to: "file:///etc/passwd"))
        let error = await transferError {
            try await transfer.download(from: server.url("/video.mp4"), to: directory.file("video.mp4"))
        }
        #expect(error?.code == .unsupportedScheme)
        #expect(error?.message.contains("redirected to file:///etc/passwd") == true, "\(String(describing: error))")
        #expect(error?.isRetryable == false)
        #expect(directory.contents.isEmpty)
    }

    @Test(
        "URLs other than http and https are refused before any transfer",
        arguments: ["file:///etc/passwd", "ftp://example.com/video.mp4", "gopher://example.com/", "dict://example.com/"])
    func unsupportedSchemes(url: String) async throws {
        let error = await transferError { try await transfer.download(from: url, to: directory.file("video.mp4")) }
        #expect(error?.code == .unsupportedScheme)
        #expect(error?.message.hasSuffix("only http and https URLs are allowed") == true)
        #expect(directory.contents.isEmpty)
    }

    @Test("Text that is not a URL is refused", arguments: ["not a URL", "http://exa mple.com/", "http://:80/", ""])
    func invalidURLs(url: String) async throws {
        let error = await transferError { try await transfer.download(from: url, to: directory.file("video.mp4")) }
        #expect(error?.code == .invalidURL)
        #expect(error?.isRetryable == false)
    }
}
