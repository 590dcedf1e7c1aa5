import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Postgres
import TestSupport
import Testing

/// `spotter serve` as an operator runs it: it says where it listens, answers, and stops on SIGTERM.
@Suite("spotter serve", .timeLimit(.minutes(2)))
struct ServeCommandTests {
    @Test("serve listens where it says, answers /readyz and a key-less /v1 request, and ends cleanly on SIGTERM", .postgresDatabase)
    func serve() async throws {
        #expect(try SpotterProcess.run(["migrate"], environment: ["SPOTTER_DATABASE_URL": PostgresDatabase.url]).status == 0)
        let process = Process()
        process.executableURL = SpotterProcess.executable
        process.arguments = ["serve", "--port", "0"]
        var environment = ProcessInfo.processInfo.environment
        environment["SPOTTER_DATABASE_URL"] = PostgresDatabase.url
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        // "listening on http://127.0.0.1:PORT" on standard error.
        var seen = ""
        while !seen.contains("listening on http://"), case let chunk = errors.fileHandleForReading.availableData, !chunk.isEmpty {
            seen += String(decoding: chunk, as: UTF8.self)
        }
        let address = try #require(seen.firstMatch(of: /listening on (http:\/\/127\.0\.0\.1:\d+)/)?.output.1, "\(seen)")
        let session = URLSession(configuration: .ephemeral)
        let (ready, readyResponse) = try await session.data(from: URL(string: "\(address)/readyz")!)
        #expect((readyResponse as? HTTPURLResponse)?.statusCode == 200 && String(decoding: ready, as: UTF8.self).contains("ready"))
        let (_, closed) = try await session.data(from: URL(string: "\(address)/v1/sessions/\(UUID())")!)
        #expect((closed as? HTTPURLResponse)?.statusCode == 401)

        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    }
}
