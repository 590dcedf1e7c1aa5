import Foundation
import LandmarkTracks
import Postgres
import SyntheticMotion
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `spotter webhooks …` as an operator and a receiver's developer run it.
@Suite("spotter webhooks")
struct WebhooksCommandTests {
    static let key = Data((0..<32).map { UInt8(255 - $0) }).base64EncodedString()

    /// Runs `spotter` with the sealing key, and the test's database unless `database` is false.
    func spotter(_ arguments: [String], _ environment: [String: String] = [:], database: Bool = true) async throws -> SubprocessOutcome {
        let base = ["SPOTTER_WEBHOOK_KEY": Self.key].merging(database ? ["SPOTTER_DATABASE_URL": PostgresDatabase.url] : [:]) { $1 }
        return try await SpotterProcess.run(arguments, environment: base.merging(environment) { $1 })
    }

    func json(_ outcome: SubprocessOutcome) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: outcome.standardOutput) as? [String: Any])
    }

    @Test("sign prints Standard Webhooks' known answer for a body on standard input")
    func sign() async throws {
        let outcome = try await runSubprocess(URL(fileURLWithPath: "/bin/sh"), [
            "-c", #"printf '{"test": 2432232314}' | "$0" webhooks sign --secret whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw --id msg_p5jXN8AQM9LWM0D4loKWxJek --timestamp 1614265330"#,
            SpotterProcess.executable.path,
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(String(decoding: outcome.standardOutput, as: UTF8.self) == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=\n")
        let bad = try await spotter(["webhooks", "sign", "--secret", "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "--id", "x", "--timestamp", "1"], database: false)
        #expect(bad.status == 64 && bad.errorLines.first?.contains("whsec_") == true)
    }

    @Test("add prints the id and the secret once; list, rotate-secret and disable follow; the secret never shows again", .postgresDatabase)
    func lifecycle() async throws {
        #expect(try await spotter(["migrate"]).status == 0)
        let added = try await spotter(["webhooks", "add", "https://hooks.example.com/spotter", "--events", "analysis.completed", "--json"])
        #expect(added.status == 0, "\(added.standardError)")
        let made = try json(added)
        let id = try #require(made["id"] as? String), secret = try #require(made["secret"] as? String)
        #expect(Set(made.keys) == ["id", "secret"] && secret.hasPrefix("whsec_"))

        let listed = try await spotter(["webhooks", "list", "--json"])
        let listText = String(decoding: listed.standardOutput, as: UTF8.self)
        #expect(listed.status == 0 && listText.contains(id) && listText.contains("analysis.completed"))
        #expect(!listText.contains(secret.dropFirst(6)) && !listed.standardError.contains(secret.dropFirst(6)))

        let rotated = try json(try await spotter(["webhooks", "rotate-secret", id, "--json"]))
        #expect((rotated["secret"] as? String)?.hasPrefix("whsec_") == true && rotated["secret"] as? String != secret)
        let table = String(decoding: try await spotter(["webhooks", "list"]).standardOutput, as: UTF8.self)
        #expect(table.contains("previous secret signs until"))

        #expect(try await spotter(["webhooks", "disable", id, "--reason", "moving receivers"]).status == 0)
        #expect(String(decoding: try await spotter(["webhooks", "list"]).standardOutput, as: UTF8.self).contains("moving receivers"))
        let unknown = try await spotter(["webhooks", "disable", UUID().uuidString])
        #expect(unknown.status == 64 && unknown.errorLines.first?.contains("no webhook endpoint") == true)
    }

    @Test("internal targets, http and unknown events are refused unless allowed; no sealing key is a clear error", .postgresDatabase)
    func refusals() async throws {
        #expect(try await spotter(["migrate"]).status == 0)
        for url in ["https://127.0.0.1/hook", "https://2130706433/", "https://[::ffff:127.0.0.1]/", "http://hooks.example.com/", "https://169.254.169.254/"] {
            let outcome = try await spotter(["webhooks", "add", url])
            #expect(outcome.status == 64 && outcome.errorLines.count == 1, "\(url): \(outcome.standardError)")
        }
        let events = try await spotter(["webhooks", "add", "https://hooks.example.com/", "--events", "report.ready"])
        #expect(events.status == 64 && events.errorLines.first?.contains("report.ready") == true)
        let allowed = try await spotter(["webhooks", "add", "http://127.0.0.1:9/hook"], ["SPOTTER_ALLOW_PRIVATE_TARGETS": "1"])
        #expect(allowed.status == 0, "\(allowed.standardError)")
        let metadata = try await spotter(["webhooks", "add", "http://169.254.169.254/"], ["SPOTTER_ALLOW_PRIVATE_TARGETS": "1"])
        #expect(metadata.status == 64)
        let keyless = try await spotter(["webhooks", "add", "https://hooks.example.com/"], ["SPOTTER_WEBHOOK_KEY": ""])
        #expect(keyless.status == 69 && keyless.errorLines.first?.contains("SPOTTER_WEBHOOK_KEY") == true)
    }

    /// `spotter worker` with the sealing key, loopback targets allowed, its stderr in `log`.
    func worker(log: URL, work: URL) throws -> Process {
        let worker = Process()
        worker.executableURL = SpotterProcess.executable
        worker.arguments = ["worker", "--work-dir", work.path, "--webhook-lease", "5"]
        worker.environment = ProcessInfo.processInfo.environment.merging([
            "SPOTTER_DATABASE_URL": PostgresDatabase.url, "SPOTTER_WEBHOOK_KEY": Self.key, "SPOTTER_ALLOW_PRIVATE_TARGETS": "1",
            "SPOTTER_PUBLIC_URL": "https://spotter.example.com",
        ]) { $1 }
        FileManager.default.createFile(atPath: log.path, contents: nil)
        worker.standardError = try FileHandle(forWritingTo: log)
        try worker.run()
        return worker
    }

    func waitFor(_ seconds: Int, _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return try await condition()
    }

    @Test("spotter worker delivers an analysis's event, signed; killed -9 mid-delivery, the next worker sends it again with the same id", .postgresDatabase)
    func workerDelivers() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-webhooks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try await spotter(["migrate"]).status == 0)
        let server = try LoopbackHTTPServer()
        var slow = LoopbackHTTPServer.Response.status(200)
        slow.delay = .seconds(30)
        server.respond(to: "/hook", with: slow)
        let added = try await spotter(["webhooks", "add", server.url("/hook"), "--json"], ["SPOTTER_ALLOW_PRIVATE_TARGETS": "1"])
        let secret = try #require(try json(added)["secret"] as? String)

        var conditions = SetConditions()
        conditions.reps = 3
        let track = directory.appendingPathComponent("squats.jsonl")
        try LandmarkTrackWriter.jsonLines(of: SyntheticSessions.make("squat", conditions, seed: 5).track).write(to: track)
        #expect(try await spotter(["jobs", "enqueue", track.path, "--exercise", "squat", "--landmarks"]).status == 0)

        let first = try worker(log: directory.appendingPathComponent("first.log"), work: directory.appendingPathComponent("w1"))
        #expect(try await waitFor(120) { !server.requests.isEmpty }, "the first worker sent the event")
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        server.respond(to: "/hook", with: .status(200))
        // Time passes: the dead worker's lease runs out (or, had its attempt timed out first, the retry comes due).
        let database = try await PostgresConnection.connect(to: PostgresDatabase.url)
        let stuck = try await database.query(
            "UPDATE webhook_deliveries SET lease_expires_at = now(), next_attempt_at = now() WHERE state IN ('delivering', 'pending') RETURNING id")
        #expect(stuck.count == 1, "the delivery is neither lost nor finished")
        await database.close()
        let second = try worker(log: directory.appendingPathComponent("second.log"), work: directory.appendingPathComponent("w2"))
        defer { second.terminate(); second.waitUntilExit() }
        let delivered = try await waitFor(60) {
            String(decoding: try await spotter(["webhooks", "deliveries", "--json"]).standardOutput, as: UTF8.self).contains("\"delivered\"")
        }
        #expect(delivered, "\((try? String(contentsOf: directory.appendingPathComponent("second.log"), encoding: .utf8)) ?? "")")
        // Sent at least twice (once more by the first worker itself, should its lease have run out under a slow machine), always as one message.
        let requests = server.requests
        #expect(requests.count >= 2 && Set(requests.compactMap { $0.header("webhook-id") }).count == 1)
        #expect(try await StandardWebhooksVerifier.verify(requests, secret: secret) == Array(repeating: "ok", count: requests.count))
        let body = try #require(try JSONSerialization.jsonObject(with: Data(requests[requests.count - 1].body)) as? [String: Any])
        let data = try #require(body["data"] as? [String: Any])
        #expect(body["type"] as? String == "analysis.completed")
        #expect((data["summary"] as? [String: Any])?["rep_count"] as? Int == 3 && data["exercise"] as? String == "squat")
        #expect((data["report_url"] as? String)?.hasPrefix("https://spotter.example.com/v1/sessions/") == true)
        let listed = try await #require(try JSONSerialization.jsonObject(with: try spotter(["webhooks", "deliveries", "--json"]).standardOutput) as? [[String: Any]])
        #expect((listed.first?["attempts"] as? Int ?? 0) >= 2 && listed.first?["last_status"] as? Int == 200)
        let attempts = try await #require(try JSONSerialization.jsonObject(
            with: try spotter(["webhooks", "deliveries", "--attempts", "--json"]).standardOutput) as? [[String: Any]])
        #expect(attempts.first?["outcome"] as? String == "delivered" && attempts.first?["status"] as? Int == 200)
    }
}
