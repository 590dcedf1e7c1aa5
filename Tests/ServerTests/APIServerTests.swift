import APIAdapters
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import Postgres
import Rules
import Server
import Store
import SyntheticMotion
import Testing
import TestSupport

/// A real `APIServer` on loopback over a real PostgreSQL server, called over HTTP.
@Suite("The HTTP API on a real server", .timeLimit(.minutes(5)))
struct APIServerTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// An answer: status, headers (lower-case names) and body.
    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: Data
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Runs the server for `body`, on a free port; `call` makes requests to it.
    static func withServer(
        rateLimit: (rate: Double, burst: Double) = (100, 200), logger: Logger = Logger(label: "test-api"), uploads: Uploads? = nil,
        webhooks: (any PostgresClient) -> (any WebhookRegistry)? = { _ in nil }, keyTrust: Duration = .seconds(5),
        idleTimeout: Duration = .seconds(600), requestTimeLimit: (request: Duration, upload: Duration) = (.seconds(600), .seconds(1800)),
        listening: Listening? = nil, videoURLs: (any VideoURLPolicy)? = nil,
        _ body: (_ connection: PostgresConnection, _ call: @escaping (String, String, String?, Data?, [String: String]) async throws -> Answer) async throws -> Void
    ) async throws {
        let connection = try await migratedDatabase()
        let pool = PostgresConnectionPool(url: PostgresDatabase.url, size: 2, waitLimit: .seconds(600))
        let rules = try RuleBook(directory: repository.appendingPathComponent("Rules").path)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        var server = APIServer(host: "127.0.0.1", port: 0, database: pool, rules: rules, logger: logger) { continuation.yield($0) }
        server.rateLimit = rateLimit
        server.uploads = uploads
        server.webhooks = webhooks(pool)
        server.keyTrust = keyTrust
        server.idleTimeout = idleTimeout
        server.requestTimeLimit = requestTimeLimit
        server.videoURLs = videoURLs
        let running = Task { try await server.run() }
        defer { running.cancel() }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        listening?.port = port
        // A loaded 2-core machine running every suite at once has answered a request
        // here after 58 s, and stalled a connection for over 30 s: the client, the
        // server's idle and request limits and the pool's wait all allow 10 minutes
        // here; the tests of those limits set short ones of their own.
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 600
        let session = URLSession(configuration: configuration)
        try await body(connection) { method, path, key, content, headers in
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
            request.httpMethod = method
            if let key { request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            request.httpBody = content
            let (data, response) = try await session.data(for: request)
            let http = try #require(response as? HTTPURLResponse)
            let fields = Dictionary(http.allHeaderFields.map { (String(describing: $0.key).lowercased(), String(describing: $0.value)) }) { a, _ in a }
            return Answer(status: http.statusCode, headers: fields, body: data)
        }
        await pool.close()
    }

    /// Where a test server listens, for tests that speak HTTP by hand.
    final class Listening: @unchecked Sendable {
        var port = 0
    }

    static func key(_ connection: PostgresConnection, organization: String) async throws -> (String, Organization) {
        let (made, _) = try await Organization.named(organization, on: connection)
        return (try await APIKeys(database: connection).create(organizationID: made.id, role: .coach, name: "test").secret, made)
    }

    static let json = ["Content-Type": "application/json"]

    /// A session of `organization` scored as a worker leaves it: a synthetic squat set of `reps` reps.
    static func scoredSession(_ connection: PostgresConnection, _ organization: Organization, reps: Int, athlete: String? = nil) async throws -> UUID {
        let queue = JobQueue(connection: connection)
        var athleteID: UUID?
        if let athlete { athleteID = try await Athletes.id(reference: athlete, organizationID: organization.id, on: connection) }
        _ = try await queue.enqueue(AnalysisRequest(
            organizationID: organization.id, athleteID: athleteID, exercise: "squat", kind: .scoreTrack,
            sourceURI: "https://t.example.com/\(UUID()).jsonl", idempotencyKey: UUID().uuidString, origin: .client))
        let claimed = try #require(try await queue.claim(worker: "test"))
        var conditions = SetConditions()
        conditions.reps = reps
        let track = SyntheticSessions.make("squat", conditions, seed: UInt64(reps)).track
        let rule = try RuleBook.rule(for: "squat", in: repository.appendingPathComponent("Rules").path)
        try await RuleVersions.record(rule, on: connection)
        _ = try await AnalysisStore(queue: queue).complete(claimed, report: Scorer(rule: rule).score(track).report, track: track)
        return claimed.job.sessionID
    }

    @Test("health, readiness and the OpenAPI document need no key; every /v1 route needs a live one", .postgresDatabase)
    func openAndClosed() async throws {
        try await Self.withServer { _, call in
            #expect(try await call("GET", "/healthz", nil, nil, [:]).json["status"] as? String == "ok")
            #expect(try await call("GET", "/readyz", nil, nil, [:]).json["status"] as? String == "ready")
            let document = try await call("GET", "/openapi.json", nil, nil, [:])
            #expect(document.status == 200 && document.json["openapi"] as? String == "3.1.0")
            let paths = try #require(document.json["paths"] as? [String: Any])
            #expect(Set(paths.keys).isSuperset(of: ["/v1/sessions", "/v1/sessions/{id}", "/v1/sessions/{id}/report"]))

            let none = try await call("GET", "/v1/sessions/\(UUID())", nil, nil, [:])
            #expect(none.status == 401 && none.headers["content-type"] == "application/problem+json")
            #expect(none.json["type"] as? String == "urn:spotter:problem:unauthorized" && none.headers["www-authenticate"] == "Bearer")
            let wrong = try await call("GET", "/v1/sessions/\(UUID())", "spk_000000000000_" + String(repeating: "A", count: 43), nil, [:])
            #expect(wrong.status == 401 && wrong.body == none.body, "a wrong key answers like no key")
            let unknownRoute = try await call("GET", "/v2/anything", nil, nil, [:])
            #expect(unknownRoute.status == 404 && unknownRoute.json["type"] as? String == "urn:spotter:problem:not-found")
        }
    }

    @Test("a session from a video_url is queued once per Idempotency-Key and read back; bad requests get problem details", .postgresDatabase)
    func sessions() async throws {
        try await Self.withServer { connection, call in
            let (key, _) = try await Self.key(connection, organization: "Gym")
            let body = Data(#"{"exercise": "squat", "video_url": "https://videos.example.com/set1.mp4", "athlete": "athlete-7"}"#.utf8)
            let made = try await call("POST", "/v1/sessions", key, body, Self.json.merging(["Idempotency-Key": "upload-1"]) { $1 })
            #expect(made.status == 202, "\(made.text)")
            #expect(made.json["status"] as? String == "queued" && made.json["exercise"] as? String == "squat")
            let id = try #require(made.json["id"] as? String)
            let again = try await call("POST", "/v1/sessions", key, body, Self.json.merging(["Idempotency-Key": "upload-1"]) { $1 })
            #expect(again.status == 202 && again.json["id"] as? String == id, "a retry returns the first answer")
            let read = try await call("GET", "/v1/sessions/\(id)", key, nil, [:])
            #expect(read.status == 200 && read.json["id"] as? String == id && read.json["status"] as? String == "queued")
            #expect(try await call("GET", "/v1/sessions/\(id)/report", key, nil, [:]).status == 404, "no report yet")
            let athletes = try await connection.query("SELECT count(*)::int AS count FROM athletes WHERE external_ref = 'athlete-7'")
            #expect(try athletes[0].decode("count", as: Int.self) == 1)

            let refused: [(Data, [String: String], Int, String)] = [
                (Data(#"{"exercise": "yoga", "video_url": "https://v.example.com/a.mp4"}"#.utf8), Self.json, 422, "unknown-exercise"),
                (Data(#"{"exercise": "squat", "video_url": "file:///etc/passwd"}"#.utf8), Self.json, 422, "invalid-video-url"),
                (Data(#"{"exercise": "squat", "video_url": "/srv/uploads/a.mp4"}"#.utf8), Self.json, 422, "invalid-video-url"),
                (Data(#"{"exercise": "squat""#.utf8), Self.json, 400, "invalid-request"),
                (Data(#"{"exercise": "squat", "video_url": "https://v.example.com/a.mp4"}"#.utf8), ["Content-Type": "text/plain"], 415, "unsupported-media-type"),
                (Data(repeating: 0x20, count: 100 << 10), Self.json, 413, "too-large"),
            ]
            for (content, headers, status, code) in refused {
                let answer = try await call("POST", "/v1/sessions", key, content, headers)
                #expect(answer.status == status && answer.json["type"] as? String == "urn:spotter:problem:\(code)", "\(answer.status) \(answer.text)")
                #expect(!answer.text.contains("/etc/passwd") && !answer.text.lowercased().contains("select"))
            }
            let sessions = try await connection.query("SELECT count(*)::int AS count FROM sessions")
            #expect(try sessions[0].decode("count", as: Int.self) == 1, "nothing refused made a session")
        }
    }

    @Test("another organization's session answers exactly like an unknown one, on every route", .postgresDatabase)
    func tenants() async throws {
        try await Self.withServer { connection, call in
            let (key, gym) = try await Self.key(connection, organization: "Gym")
            let (otherKey, _) = try await Self.key(connection, organization: "Other gym")
            let id = try await Self.scoredSession(connection, gym, reps: 4).uuidString.lowercased()

            let status = try await call("GET", "/v1/sessions/\(id)", key, nil, [:])
            #expect(status.json["status"] as? String == "succeeded" && status.json["rep_count"] as? Int == 4)
            let report = try await call("GET", "/v1/sessions/\(id)/report", key, nil, [:])
            #expect(report.status == 200 && report.json["format"] as? String == "spotter.report/v1" && report.json["rep_count"] as? Int == 4)
            let page = try await call("GET", "/v1/sessions/\(id)/report.html", key, nil, [:])
            #expect(page.status == 200 && page.headers["content-type"]?.hasPrefix("text/html") == true && page.text.contains("<svg"))

            for suffix in ["", "/report", "/report.html"] {
                let theirs = try await call("GET", "/v1/sessions/\(id)\(suffix)", otherKey, nil, [:])
                let unknown = try await call("GET", "/v1/sessions/\(UUID().uuidString.lowercased())\(suffix)", otherKey, nil, [:])
                #expect(theirs.status == 404 && theirs.body == unknown.body && theirs.headers["content-type"] == unknown.headers["content-type"])
            }
        }
    }

    @Test("a key past its rate limit is answered 429 with Retry-After; another key is not; the access log names no key", .postgresDatabase)
    func rateLimitAndAccessLog() async throws {
        let capture = LogCapture()
        // One request a hundred seconds after a burst of two: a loaded machine cannot refill it during the test.
        try await Self.withServer(rateLimit: (rate: 0.01, burst: 2), logger: capture.logger) { connection, call in
            let (key, _) = try await Self.key(connection, organization: "Gym")
            let (otherKey, _) = try await Self.key(connection, organization: "Other gym")
            let path = "/v1/sessions/\(UUID())"
            #expect(try await call("GET", path, key, nil, [:]).status == 404)
            #expect(try await call("GET", path, key, nil, [:]).status == 404)
            let limited = try await call("GET", path, key, nil, [:])
            #expect(limited.status == 429 && limited.json["type"] as? String == "urn:spotter:problem:rate-limited")
            #expect(Int(limited.headers["retry-after"] ?? "") ?? 0 >= 1, "\(limited.headers)")
            #expect(try await call("GET", path, otherKey, nil, [:]).status == 404, "each key has its own allowance")

            let lines = capture.lines.withLock { $0 }.filter { $0.hasPrefix("request ") }
            #expect(lines.count >= 4 && lines.contains { $0.contains("status=429") && $0.contains("route=/v1/sessions/{id}") }, "\(lines)")
            #expect(!lines.contains { $0.contains(key.dropFirst(17)) || $0.contains(otherKey.dropFirst(17)) || $0.contains("Bearer") })
        }
    }

    @Test("a video_url naming an internal address in any spelling, or with credentials, is refused when the session is made", .postgresDatabase)
    func videoURLPolicy() async throws {
        try await Self.withServer(videoURLs: VideoURLChecks(policy: .publicOnly)) { connection, call in
            let (key, _) = try await Self.key(connection, organization: "Gym")
            for url in [
                "http://127.1/a.mp4", "http://0x7f000001/a.mp4", "http://2130706433/a.mp4", "http://[::ffff:127.0.0.1]/a.mp4",
                "http://169.254.169.254/latest/meta-data", "http://10.0.0.8/a.mp4", "https://user:secret@videos.example.com/a.mp4",
            ] {
                let answer = try await call("POST", "/v1/sessions", key, try JSONSerialization.data(withJSONObject: ["exercise": "squat", "video_url": url]), Self.json)
                #expect(answer.status == 422 && answer.json["type"] as? String == "urn:spotter:problem:invalid-video-url", "\(url): \(answer.text)")
                #expect(!answer.text.contains("secret"), "the URL's credentials are not repeated")
            }
            let fine = try await call("POST", "/v1/sessions", key, Data(#"{"exercise": "squat", "video_url": "https://videos.example.com/a.mp4"}"#.utf8), Self.json)
            #expect(fine.status == 202, "\(fine.text)")
        }
    }

    @Test("an accepted key is trusted for a moment: a revoked key stops working once that has passed", .postgresDatabase)
    func revokedKey() async throws {
        try await Self.withServer(keyTrust: .milliseconds(300)) { connection, call in
            let (key, organization) = try await Self.key(connection, organization: "Gym")
            let path = "/v1/athletes/nobody/trends"
            #expect(try await call("GET", path, key, nil, [:]).status == 404, "the key works")
            let id = try #require(try await APIKeys(database: connection).list(scope: .organization(organization.id)).first?.id)
            #expect(try await APIKeys(database: connection).revoke(id, scope: .organization(organization.id)))
            try await Task.sleep(for: .milliseconds(400))
            #expect(try await call("GET", path, key, nil, [:]).status == 401, "revoked, and no longer trusted")
        }
    }

    @Test("an athlete's trends: their analysed sessions in order, of one exercise when asked; another organization's athlete is unknown", .postgresDatabase)
    func trends() async throws {
        try await Self.withServer { connection, call in
            let (key, gym) = try await Self.key(connection, organization: "Gym")
            let (otherKey, other) = try await Self.key(connection, organization: "Other gym")
            let first = try await Self.scoredSession(connection, gym, reps: 3, athlete: "ana")
            let second = try await Self.scoredSession(connection, gym, reps: 5, athlete: "ana")
            _ = try await Self.scoredSession(connection, gym, reps: 4, athlete: "ben")
            _ = try await Self.scoredSession(connection, other, reps: 6, athlete: "ana")

            let trends = try await call("GET", "/v1/athletes/ana/trends", key, nil, [:])
            #expect(trends.status == 200 && trends.json["athlete"] as? String == "ana", "\(trends.text)")
            let sessions = try #require(trends.json["sessions"] as? [[String: Any]])
            #expect(sessions.map { $0["session_id"] as? String } == [first, second].map { $0.uuidString.lowercased() })
            #expect(sessions.map { $0["rep_count"] as? Int } == [3, 5])
            #expect(sessions.allSatisfy { ($0["range_of_motion"] as? Double ?? 0) > 30 && $0["fault_rate"] is Double && $0["date"] is String })
            let pushups = try await call("GET", "/v1/athletes/ana/trends?exercise=pushup", key, nil, [:])
            #expect(pushups.status == 200 && (pushups.json["sessions"] as? [Any])?.isEmpty == true)

            let theirs = try await call("GET", "/v1/athletes/ben/trends", otherKey, nil, [:])
            let unknown = try await call("GET", "/v1/athletes/nobody/trends", otherKey, nil, [:])
            #expect(theirs.status == 404 && theirs.body == unknown.body)
            let ownAna = try #require(try await call("GET", "/v1/athletes/ana/trends", otherKey, nil, [:]).json["sessions"] as? [[String: Any]])
            #expect(ownAna.map { $0["rep_count"] as? Int } == [6], "the other organization's own ana only")

            let page = try await call("GET", "/v1/athletes/ana/report.html", key, nil, [:])
            #expect(page.status == 200 && page.headers["content-type"] == "text/html; charset=utf-8")
            #expect(page.text.hasPrefix("<!doctype html>") && page.text.contains("<h2>Back squat</h2>") && page.text.contains("2 analysed sessions"))
            for title in ["Reps", "Range of motion (°)", "Tempo (time a rep) (s)", "Fault rate (%)"] {
                #expect(page.text.contains(#"<text class="title" x="44" y="16">\#(title)</text>"#), "a plot of \(title)")
            }
            #expect(page.text.components(separatedBy: #"<circle class="point""#).count - 1 == 8, "two sessions on each of four plots")
            for id in [first, second] {
                #expect(page.text.contains(#"href="/v1/sessions/\#(id.uuidString.lowercased())/report.html""#))
            }
            #expect(!page.text.contains("http://") || page.text.contains("http://www.w3.org/2000/svg"), "nothing fetched from elsewhere")
            let theirPage = try await call("GET", "/v1/athletes/ben/report.html", otherKey, nil, [:])
            #expect(theirPage.status == 404 && theirPage.body == unknown.body)
        }
    }

    @Test("/metrics: requests by route and status with latency histograms, jobs by state, the oldest queued job, deliveries by state", .postgresDatabase)
    func metrics() async throws {
        try await Self.withServer { connection, call in
            let (key, _) = try await Self.key(connection, organization: "Gym")
            _ = try await call("GET", "/healthz", nil, nil, [:])
            _ = try await call("GET", "/v1/sessions/\(UUID())", key, nil, [:])
            let body = Data(#"{"exercise": "squat", "video_url": "https://videos.example.com/set1.mp4"}"#.utf8)
            #expect(try await call("POST", "/v1/sessions", key, body, Self.json).status == 202)
            let scrape = try await call("GET", "/metrics", nil, nil, [:])
            #expect(scrape.status == 200 && scrape.headers["content-type"]?.hasPrefix("text/plain") == true)
            let text = scrape.text
            for line in [
                #"spotter_http_requests_total{route="/healthz",status="200"} 1"#,
                #"spotter_http_requests_total{route="/v1/sessions/{id}",status="404"} 1"#,
                #"spotter_http_requests_total{route="/v1/sessions",status="202"} 1"#,
                #"spotter_jobs{state="queued"} 1"#, #"spotter_jobs{state="succeeded"} 0"#,
                #"spotter_webhook_deliveries{state="dead"} 0"#,
            ] {
                #expect(text.contains(line), "\(line) in\n\(text)")
            }
            #expect(text.contains(#"spotter_http_request_duration_seconds_bucket{route="/healthz",le="0.005"}"#))
            let age = text.split(separator: "\n").first { $0.hasPrefix("spotter_oldest_queued_job_age_seconds ") }
            #expect(age.flatMap { Double($0.split(separator: " ")[1]) }.map { $0 >= 0 && $0 < 600 } == true, "\(age ?? "none")")
            #expect(!text.contains(key.dropFirst(17)))
        }
    }
}
