import APIAdapters
import Foundation
import Postgres
import Server
import Transfer
import Testing
import TestSupport
import Webhooks

/// `/v1/webhooks` on the real server, with the notify stage's real registry.
@Suite("Webhook endpoints over the API", .timeLimit(.minutes(5)))
struct WebhookRouteTests {
    static func withServer(
        _ body: (_ connection: PostgresConnection, _ call: @escaping (String, String, String?, Data?, [String: String]) async throws -> APIServerTests.Answer) async throws -> Void
    ) async throws {
        let sealing = try SecretSealing(base64: Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString())
        try await APIServerTests.withServer(webhooks: { database in
            WebhookRegistration(database: database, sealing: sealing, allowingHTTP: true, policy: .allowingLoopback)
        }, body)
    }

    static func json(_ object: [String: Any]) throws -> Data { try JSONSerialization.data(withJSONObject: object) }

    @Test("an endpoint is registered with its secret shown once, listed, its deliveries read, and removed", .postgresDatabase)
    func lifecycle() async throws {
        try await Self.withServer { connection, call in
            let (key, _) = try await APIServerTests.key(connection, organization: "Hooks")
            let made = try await call("POST", "/v1/webhooks", key, try Self.json(["url": "http://127.0.0.1:9/hook"]), APIServerTests.json)
            #expect(made.status == 201, "\(made.text)")
            let id = try #require(made.json["id"] as? String)
            #expect((made.json["secret"] as? String)?.hasPrefix("whsec_") == true)
            #expect(made.json["events"] as? [String] == ["analysis.completed", "analysis.failed"] && made.json["enabled"] as? Bool == true)

            let listed = try await call("GET", "/v1/webhooks", key, nil, [:])
            let endpoints = try #require(try JSONSerialization.jsonObject(with: listed.body) as? [[String: Any]])
            #expect(endpoints.map { $0["id"] as? String } == [id] && !listed.text.contains("whsec_"), "the secret is shown once")
            let deliveries = try await call("GET", "/v1/webhooks/\(id)/deliveries", key, nil, [:])
            #expect(deliveries.status == 200 && deliveries.text == "[]")

            // A retry with the same Idempotency-Key is the first endpoint, with its secret; another key makes another.
            let once = ["Idempotency-Key": "hook-1"].merging(APIServerTests.json) { $1 }
            let first = try await call("POST", "/v1/webhooks", key, try Self.json(["url": "http://127.0.0.1:9/other"]), once)
            let retry = try await call("POST", "/v1/webhooks", key, try Self.json(["url": "http://127.0.0.1:9/other"]), once)
            #expect(first.status == 201 && retry.status == 201 && retry.json["id"] as? String == first.json["id"] as? String)
            #expect(retry.json["secret"] as? String == first.json["secret"] as? String)
            let (otherKey, _) = try await APIServerTests.key(connection, organization: "Other hooks")
            let theirs = try await call("POST", "/v1/webhooks", otherKey, try Self.json(["url": "http://127.0.0.1:9/other"]), once)
            #expect(theirs.status == 201 && theirs.json["id"] as? String != first.json["id"] as? String, "keys are each organization's own")
            let tooLong = ["Idempotency-Key": String(repeating: "k", count: 201)].merging(APIServerTests.json) { $1 }
            #expect(try await call("POST", "/v1/webhooks", key, try Self.json(["url": "http://127.0.0.1:9/x"]), tooLong).status == 400)

            let removed = try await call("DELETE", "/v1/webhooks/\(id)", key, nil, [:])
            #expect(removed.status == 204)
            let after = try #require(try JSONSerialization.jsonObject(with: try await call("GET", "/v1/webhooks", key, nil, [:]).body) as? [[String: Any]])
            #expect(after.first?["enabled"] as? Bool == false && after.first?["disabled_reason"] as? String == "removed through the API")
        }
    }

    @Test("URLs and event types that cannot be used are refused with the reason", .postgresDatabase)
    func refused() async throws {
        try await Self.withServer { connection, call in
            let (key, _) = try await APIServerTests.key(connection, organization: "Hooks")
            for body: [String: Any] in [
                ["url": "http://10.0.0.1/hook"], ["url": "http://169.254.169.254/latest"], ["url": "ftp://example.com/x"],
                ["url": "https://user:pass@example.com/x"], ["url": "https://example.com/x", "events": ["analysis.deleted"]],
            ] {
                let answer = try await call("POST", "/v1/webhooks", key, try Self.json(body), APIServerTests.json)
                #expect(answer.status == 422 && answer.json["type"] as? String == "urn:spotter:problem:invalid-webhook", "\(body): \(answer.text)")
                #expect((answer.json["detail"] as? String)?.isEmpty == false)
            }
            #expect(try await call("POST", "/v1/webhooks", key, Data("url=x".utf8), [:]).status == 415)
            #expect(try await call("POST", "/v1/webhooks", key, Data("{".utf8), APIServerTests.json).status == 400)
            let listed = try await call("GET", "/v1/webhooks", key, nil, [:])
            #expect(listed.text == "[]", "nothing registered")
        }
    }

    @Test("another organization's endpoint answers exactly like an unknown one, and is left as it was", .postgresDatabase)
    func tenants() async throws {
        try await Self.withServer { connection, call in
            let (owner, _) = try await APIServerTests.key(connection, organization: "Owner")
            let (other, _) = try await APIServerTests.key(connection, organization: "Other")
            let made = try await call("POST", "/v1/webhooks", owner, try Self.json(["url": "http://127.0.0.1:9/hook"]), APIServerTests.json)
            let id = try #require(made.json["id"] as? String), unknown = UUID().uuidString.lowercased()
            #expect(try await call("GET", "/v1/webhooks", other, nil, [:]).text == "[]")
            for (method, suffix) in [("DELETE", ""), ("GET", "/deliveries")] {
                let theirs = try await call(method, "/v1/webhooks/\(id)\(suffix)", other, nil, [:])
                let none = try await call(method, "/v1/webhooks/\(unknown)\(suffix)", other, nil, [:])
                #expect(theirs.status == 404 && theirs.body == none.body, "\(method) \(suffix)")
            }
            let still = try #require(try JSONSerialization.jsonObject(with: try await call("GET", "/v1/webhooks", owner, nil, [:]).body) as? [[String: Any]])
            #expect(still.first?["enabled"] as? Bool == true, "the other organization changed nothing")
        }
    }

    @Test("a server without the sealing key answers 503 on /v1/webhooks", .postgresDatabase)
    func withoutKey() async throws {
        try await APIServerTests.withServer { connection, call in
            let (key, _) = try await APIServerTests.key(connection, organization: "Hooks")
            let answer = try await call("GET", "/v1/webhooks", key, nil, [:])
            #expect(answer.status == 503 && answer.json["type"] as? String == "urn:spotter:problem:webhooks-disabled")
        }
    }
}
