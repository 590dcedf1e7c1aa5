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
    static func start(_ arguments: [String], environment extra: [String: String] = [:]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = SpotterProcess.executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SPOTTER_DATABASE_URL"] = PostgresDatabase.url
        process.environment = environment.merging(extra) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return (process, errors)
    }

    /// `spotter serve --port 0` started (with `options`), and the address it says it listens on.
    static func startServer(_ options: [String] = [], environment: [String: String] = [:]) throws -> (Process, String) {
        let (process, errors) = try start(["serve", "--port", "0", "--connections", "2"] + options, environment: environment)
        var seen = ""
        while !seen.contains("listening on http://"), case let chunk = errors.fileHandleForReading.availableData, !chunk.isEmpty {
            seen += String(decoding: chunk, as: UTF8.self)
        }
        guard let address = seen.firstMatch(of: /listening on (http:\/\/127\.0\.0\.1:\d+)/)?.output.1 else {
            process.terminate()
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "serve did not say where it listens: \(seen)"])
        }
        // Go on reading its log (a line a request), so that a full pipe never stops the server.
        let log = errors.fileHandleForReading
        Thread.detachNewThread { while !log.availableData.isEmpty {} }
        return (process, String(address))
    }

    @Test("serve listens where it says, answers /readyz and a key-less /v1 request, and ends cleanly on SIGTERM", .postgresDatabase)
    func serve() async throws {
        #expect(try await SpotterProcess.run(["migrate"], environment: ["SPOTTER_DATABASE_URL": PostgresDatabase.url]).status == 0)
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
        #expect(try await SpotterProcess.run(["migrate"], environment: database).status == 0)
        let created = try await SpotterProcess.run(["keys", "create", "--organization", "Gym", "--json"], environment: database)
        let key = try #require((try JSONSerialization.jsonObject(with: created.standardOutput) as? [String: String])?["key"])
        let videos = try LoopbackHTTPServer()
        defer { videos.stop() }
        videos.respond(to: "/squat.mp4", with: .ok(Array(try Data(contentsOf: URL(fileURLWithPath: TestAssets.photo("mannequin-squat.mp4"))))))
        let (server, address) = try Self.startServer(["--allow-private-sources"])
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

    @Test("serve --dev runs the whole backend: its own PostgreSQL, a key, an upload analysed by its worker, and a clean stop")
    func development() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-dev-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let log = directory + ".log"
        FileManager.default.createFile(atPath: log, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: log) }
        let process = Process()
        process.executableURL = SpotterProcess.executable
        process.arguments = ["serve", "--dev", "--dev-dir", directory, "--port", "0"]
        process.environment = ProcessInfo.processInfo.environment.filter { $0.key != "SPOTTER_DATABASE_URL" }
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var printed = ""
        for _ in 0..<240 where !printed.contains("SPOTTER_API_KEY=") {
            try await Task.sleep(for: .milliseconds(250))
            printed = try String(contentsOfFile: log, encoding: .utf8)
        }
        let address = try #require(printed.firstMatch(of: /SPOTTER_URL=(http:\/\/127\.0\.0\.1:\d+)/)?.output.1, "\(printed)")
        let key = try #require(printed.firstMatch(of: /SPOTTER_API_KEY=(spk_\S+)/)?.output.1)

        let session = URLSession(configuration: .ephemeral)
        func call(_ path: String, upload: Data? = nil) async throws -> (Int, [String: Any]) {
            var request = URLRequest(url: URL(string: address + path)!)
            request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization")
            if let upload {
                request.httpMethod = "POST"
                request.setValue("video/mp4", forHTTPHeaderField: "Content-Type")
                request.httpBody = upload
            }
            let (data, response) = try await session.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:])
        }
        let video = try Data(contentsOf: URL(fileURLWithPath: TestAssets.photo("mannequin-squat.mp4")))
        let (status, made) = try await call("/v1/sessions?exercise=squat&athlete=ana", upload: video)
        #expect(status == 202, "\(made)")
        /// The session once it has succeeded or failed (or as it is after two minutes).
        func finished(_ id: String) async throws -> [String: Any] {
            var view: [String: Any] = [:]
            for _ in 0..<240 {
                view = try await call("/v1/sessions/\(id)").1
                if ["succeeded", "failed"].contains(view["status"] as? String ?? "") { break }
                try await Task.sleep(for: .milliseconds(500))
            }
            return view
        }
        let view = try await finished(try #require(made["id"] as? String))
        #expect(view["status"] as? String == "succeeded" && view["rep_count"] as? Int == 5, "\(view)")
        // The coach page shows each rep at its turn, with the skeleton the worker drew, and a browser draws it quietly.
        var pageRequest = URLRequest(url: URL(string: "\(address)/v1/sessions/\(view["id"] as? String ?? "")/report.html")!)
        pageRequest.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization")
        let page = try await session.data(for: pageRequest).0
        let html = String(decoding: page, as: UTF8.self)
        #expect(html.components(separatedBy: #"<img src="data:image/jpeg;base64,"#).count - 1 == 5, "a picture for each of the 5 reps")
        let pageFile = directory + ".html"
        try page.write(to: URL(fileURLWithPath: pageFile))
        defer { try? FileManager.default.removeItem(atPath: pageFile) }
        let drawn = try await HeadlessBrowser.render(file: pageFile, width: 390, height: 4_000)
        #expect(drawn.consoleMessages.isEmpty, "\(drawn.consoleMessages)")
        let skeleton = drawn.screenshot.count(0x3ddc84, tolerance: 40)
        #expect(skeleton > 300, "the skeletons are drawn in the page: \(skeleton) pixels")
        #expect(try await call("/v1/athletes/ana/trends?exercise=squat").0 == 200)

        // A video cut off after its first 20 KB: taken (it starts like an MP4), then failed with the decoder's reason.
        let (cutStatus, cut) = try await call("/v1/sessions?exercise=squat", upload: video.prefix(20_000))
        #expect(cutStatus == 202, "\(cut)")
        let failed = try await finished(try #require(cut["id"] as? String))
        let reason = failed["error"] as? String ?? ""
        #expect(failed["status"] as? String == "failed" && reason.contains("not a video libav can read"), "\(failed)")
        #expect(!reason.contains(directory), "no server path in the reason: \(reason)")

        process.terminate()
        process.waitUntilExit()
        let said = try String(contentsOfFile: log, encoding: .utf8)
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(said)")
        let postgres = Process()
        postgres.executableURL = SpotterProcess.repository.appendingPathComponent("ops/postgres")
        postgres.arguments = ["status", "--dir", directory + "/postgres"]
        postgres.standardOutput = FileHandle.nullDevice
        try postgres.run()
        postgres.waitUntilExit()
        #expect(postgres.terminationStatus == 3, "the private PostgreSQL is stopped with the backend")
    }
}
