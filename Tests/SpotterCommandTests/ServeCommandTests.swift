import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Postgres
import TestSupport
import Testing

/// `spotter serve` as an operator runs it: it says where it listens, answers, and stops on SIGTERM;
/// with `spotter worker` beside it, a session sent to the API is analysed.
@Suite("spotter serve", .timeLimit(.minutes(5)))
struct ServeCommandTests {
    /// `spotter ARGUMENTS` started on the test's database; its standard error is piped.
    static func start(_ arguments: [String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = SpotterProcess.executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SPOTTER_DATABASE_URL"] = PostgresDatabase.url
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return (process, errors)
    }

    /// `spotter serve --port 0` started, and the address it says it listens on.
    static func startServer() throws -> (Process, String) {
        let (process, errors) = try start(["serve", "--port", "0", "--connections", "2"])
        var seen = ""
        while !seen.contains("listening on http://"), case let chunk = errors.fileHandleForReading.availableData, !chunk.isEmpty {
            seen += String(decoding: chunk, as: UTF8.self)
        }
        guard let address = seen.firstMatch(of: /listening on (http:\/\/127\.0\.0\.1:\d+)/)?.output.1 else {
            process.terminate()
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "serve did not say where it listens: \(seen)"])
        }
        return (process, String(address))
    }

    @Test("serve listens where it says, answers /readyz and a key-less /v1 request, and ends cleanly on SIGTERM", .postgresDatabase)
    func serve() async throws {
        #expect(try SpotterProcess.run(["migrate"], environment: ["SPOTTER_DATABASE_URL": PostgresDatabase.url]).status == 0)
        let (process, address) = try Self.startServer()
        defer { if process.isRunning { process.terminate() } }
        let session = URLSession(configuration: .ephemeral)
        let (ready, readyResponse) = try await session.data(from: URL(string: "\(address)/readyz")!)
        #expect((readyResponse as? HTTPURLResponse)?.statusCode == 200 && String(decoding: ready, as: UTF8.self).contains("ready"))
        let (_, closed) = try await session.data(from: URL(string: "\(address)/v1/sessions/\(UUID())")!)
        #expect((closed as? HTTPURLResponse)?.statusCode == 401)

        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    }

    @Test("a video_url sent to the API is fetched and analysed by a worker: the session succeeds with its 5 reps, report and page", .postgresDatabase)
    func videoURLEndToEnd() async throws {
        let database = ["SPOTTER_DATABASE_URL": PostgresDatabase.url]
        #expect(try SpotterProcess.run(["migrate"], environment: database).status == 0)
        let created = try SpotterProcess.run(["keys", "create", "--organization", "Gym", "--json"], environment: database)
        let key = try #require((try JSONSerialization.jsonObject(with: created.standardOutput) as? [String: String])?["key"])
        let videos = try LoopbackHTTPServer()
        defer { videos.stop() }
        videos.respond(to: "/squat.mp4", with: .ok(Array(try Data(contentsOf: URL(fileURLWithPath: TestAssets.photo("mannequin-squat.mp4"))))))
        let (server, address) = try Self.startServer()
        defer { if server.isRunning { server.terminate() } }
        let (worker, _) = try Self.start(["worker", "--allow-private-sources"])
        defer { if worker.isRunning { worker.terminate() } }

        let session = URLSession(configuration: .ephemeral)
        func call(_ path: String, body: [String: String]? = nil) async throws -> (Int, Data) {
            var request = URLRequest(url: URL(string: address + path)!)
            request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization")
            if let body {
                request.httpMethod = "POST"
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.httpBody = try JSONSerialization.data(withJSONObject: body)
            }
            let (data, response) = try await session.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
        }
        let (status, made) = try await call("/v1/sessions", body: ["exercise": "squat", "video_url": videos.url("/squat.mp4")])
        #expect(status == 202, "\(String(decoding: made, as: UTF8.self))")
        let id = try #require((try JSONSerialization.jsonObject(with: made) as? [String: Any])?["id"] as? String)
        var view: [String: Any] = [:]
        for _ in 0..<240 {
            view = try JSONSerialization.jsonObject(with: try await call("/v1/sessions/\(id)").1) as? [String: Any] ?? [:]
            if ["succeeded", "failed"].contains(view["status"] as? String ?? "") { break }
            try await Task.sleep(for: .milliseconds(500))
        }
        #expect(view["status"] as? String == "succeeded" && view["rep_count"] as? Int == 5, "\(view)")
        let (reportStatus, report) = try await call("/v1/sessions/\(id)/report")
        let reportJSON = try JSONSerialization.jsonObject(with: report) as? [String: Any]
        #expect(reportStatus == 200 && reportJSON?["rep_count"] as? Int == 5)
        let (pageStatus, page) = try await call("/v1/sessions/\(id)/report.html")
        #expect(pageStatus == 200 && String(decoding: page, as: UTF8.self).contains("<svg"))
    }
}
