import Foundation
import TestSupport
import Testing
import Transfer

/// The address policy at work: checked on each connection after the host
/// name resolves, so names are no way around it.
@Suite("Address policy on connections")
struct AddressPolicyTransferTests {
    let server: LoopbackHTTPServer
    let directory: DownloadDirectory

    init() throws {
        server = try LoopbackHTTPServer()
        server.respond(to: "/video.mp4", with: .ok(sampleBytes(1000)))
        directory = try DownloadDirectory()
    }

    @Test("The default policy refuses 127.0.0.1 without connecting")
    func refusesLoopbackAddress() async throws {
        let error = await transferError {
            try await HTTPTransfer().download(from: server.url("/video.mp4"), to: directory.file("video.mp4"))
        }
        #expect(error?.code == .refusedAddress)
        #expect(error?.isRetryable == false)
        #expect(
            error?.message == "refused to connect to 127.0.0.1 (loopback): cannot download \(server.url("/video.mp4")), "
                + "the address policy allows public addresses only")
        #expect(server.requests.isEmpty)
        #expect(directory.contents.isEmpty)
    }

    @Test("The default policy refuses localhost, whatever it resolves to")
    func refusesLocalhost() async throws {
        let error = await transferError {
            try await HTTPTransfer().post(to: "http://localhost:\(server.port)/hook", body: [1])
        }
        #expect(error?.code == .refusedAddress)
        #expect(error?.message.hasPrefix("refused to connect to ") == true)
        #expect(error?.message.contains("127.0.0.1 (loopback)") == true)
        #expect(server.requests.isEmpty)
    }

    @Test("Allowing loopback lets localhost through")
    func allowsLocalhost() async throws {
        let result = try await HTTPTransfer(addressPolicy: .allowingLoopback)
            .download(from: "http://localhost:\(server.port)/video.mp4", to: directory.file("video.mp4"))
        #expect(result.bytes == 1000)
    }

    @Test("A redirect to an address the policy refuses fails at the connection")
    func redirectToRefusedAddress() async throws {
        server.respond(to: "/elsewhere", with: .redirect(to: "http://0.0.0.0:\(server.port)/video.mp4"))
        let error = await transferError {
            try await HTTPTransfer(addressPolicy: .allowingLoopback)
                .download(from: server.url("/elsewhere"), to: directory.file("video.mp4"))
        }
        #expect(error?.code == .refusedAddress)
        #expect(
            error?.message.hasPrefix("refused to connect to 0.0.0.0 (unspecified): cannot download \(server.url("/elsewhere"))")
                == true)
        #expect(error?.message.hasSuffix("allows public and loopback addresses only") == true)
        #expect(server.requests.map(\.path) == ["/elsewhere"])
        #expect(directory.contents.isEmpty)
    }
}
