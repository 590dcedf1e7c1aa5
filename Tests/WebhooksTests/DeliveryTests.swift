import Foundation
import Postgres
import Store
import Testing
import TestSupport
import Transfer
@testable import Webhooks

@Suite("Webhook delivery to a receiver on loopback")
struct DeliveryTests {
    @Test("an event reaches every subscribed endpoint of its organization, signed so that standardwebhooks verifies it", .postgresDatabase)
    func signedFanOut() async throws {
        let fixture = try await DeliveryFixture()
        fixture.server.respond(to: "/hook", with: .status(204))
        fixture.server.respond(to: "/failures-only", with: .status(204))
        fixture.server.respond(to: "/other-gym", with: .status(204))
        let (endpoint, secret) = try await fixture.endpoint("/hook")
        _ = try await fixture.endpoint("/failures-only", events: ["analysis.failed"])
        let other = try await Organization.create(name: "Other gym", on: fixture.connection)
        _ = try await fixture.endpoint("/other-gym", organization: other.id)
        let webhookID = try await fixture.event(repCount: 6)

        #expect(try await fixture.dispatcher().dispatchOnce() == 1)
        let requests = fixture.server.requests
        #expect(requests.map(\.path) == ["/hook"])
        let request = try #require(requests.first)
        #expect(request.header("webhook-id") == webhookID)
        #expect(request.header("content-type") == "application/json")
        let body = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
        let data = try #require(body["data"] as? [String: Any])
        #expect(body["type"] as? String == "analysis.completed" && body["timestamp"] is String)
        #expect((data["report_url"] as? String)?.hasPrefix("https://spotter.example.com/v1/sessions/") == true)
        #expect((data["summary"] as? [String: Any])?["rep_count"] as? Int == 6 && data["job_id"] as? Int == 7)
        #expect(try await fixture.independentlyVerified(requests, secret: secret) == ["ok"])
        #expect(try await fixture.independentlyVerified(requests, secret: .generate()).first?.hasPrefix("bad") == true, "the verifier can fail")
        #expect(try await fixture.deliveries(endpoint.id).map(\.state) == ["delivered"])
        let attempt = try #require(try await fixture.attempts(endpoint.id).first)
        #expect(attempt.outcome == "delivered" && attempt.status == 204 && (attempt.latency ?? -1) >= 0)
        #expect(try await fixture.dispatcher().dispatchOnce() == 0, "delivered once")
    }

    @Test("a receiver that fails for a while gets the same message again until it takes it", .postgresDatabase)
    func retriedUntilDelivered() async throws {
        let fixture = try await DeliveryFixture()
        let (endpoint, secret) = try await fixture.endpoint()
        let webhookID = try await fixture.event()
        let dispatcher = try await fixture.dispatcher()
        let failingSince = { () async throws -> Date? in
            try await fixture.connection.query("SELECT failing_since FROM webhook_endpoints WHERE id = $1", [endpoint.id])[0]
                .decode("failing_since", as: Date?.self)
        }
        fixture.server.respond(to: "/hook", with: .status(500))
        try await dispatcher.dispatchOnce()
        let since = try #require(try await failingSince(), "failing since the first failure")
        fixture.server.respond(to: "/hook", with: .redirect(to: fixture.server.url("/elsewhere")))
        try await dispatcher.dispatchOnce()
        fixture.server.respond(to: "/hook", with: .status(200))
        try await dispatcher.dispatchOnce()
        let requests = fixture.server.requests
        #expect(requests.map(\.path) == ["/hook", "/hook", "/hook"], "the redirect was not followed")
        #expect(Set(requests.compactMap { $0.header("webhook-id") }) == [webhookID])
        #expect(Set(requests.map(\.body)).count == 1, "the same body every time")
        #expect(try await fixture.independentlyVerified(requests, secret: secret) == ["ok", "ok", "ok"])
        #expect(try await fixture.attempts(endpoint.id).map(\.status) == [500, 302, 200])
        let seen = try await fixture.queue.attempts(endpoint: endpoint.id, .organization(fixture.organization.id), limit: 10)
        #expect(seen.map(\.attempt) == [3, 2, 1] && seen.map(\.outcome) == ["delivered", "failed", "failed"])
        #expect(seen.last?.response == "status 500\n" && seen.allSatisfy { ($0.latencyMilliseconds ?? -1) >= 0 })
        #expect(try await fixture.queue.attempts(endpoint: endpoint.id, .organization(UUID()), limit: 10).isEmpty, "another organization's")
        #expect(try await fixture.deliveries(endpoint.id).map(\.state) == ["delivered"])
        #expect(try await failingSince() == nil, "a success clears it (it was \(since))")
    }

    @Test("after the last retry the delivery is dead, with the reason; the endpoint stays enabled", .postgresDatabase)
    func deadAfterRetries() async throws {
        let fixture = try await DeliveryFixture()
        let (endpoint, _) = try await fixture.endpoint()
        try await fixture.event()
        fixture.server.respond(to: "/hook", with: .status(502))
        let dispatcher = try await fixture.dispatcher(waits: [0, 0])
        for _ in 0..<4 { try await dispatcher.dispatchOnce() }
        #expect(fixture.server.requests.count == 3)
        let delivery = try #require(try await fixture.deliveries(endpoint.id).first)
        #expect(delivery.state == "dead" && delivery.attempts == 3 && delivery.lastError?.contains("502") == true)
        #expect(try await fixture.endpoints.list(.allOrganizations).first?.enabled == true)
    }

    @Test("410 Gone disables the endpoint, with the reason its owner reads, and cancels what it had pending", .postgresDatabase)
    func gone() async throws {
        let fixture = try await DeliveryFixture()
        let (endpoint, _) = try await fixture.endpoint()
        try await fixture.event()
        fixture.server.respond(to: "/hook", with: .status(410))
        try await fixture.dispatcher().dispatchOnce()
        try await fixture.event()
        #expect(try await fixture.dispatcher().dispatchOnce() == 0)
        let listed = try #require(try await fixture.endpoints.list(.allOrganizations).first { $0.id == endpoint.id })
        #expect(!listed.enabled && listed.disabledReason?.contains("410") == true)
        #expect(fixture.server.requests.count == 1)
    }

    @Test("429 and 503 with Retry-After wait as long as the receiver asks", .postgresDatabase)
    func retryAfter() async throws {
        let fixture = try await DeliveryFixture()
        let (endpoint, _) = try await fixture.endpoint()
        try await fixture.event()
        fixture.server.respond(to: "/hook", with: LoopbackHTTPServer.Response(status: 429, headers: [("Retry-After", "120")]))
        try await fixture.dispatcher().dispatchOnce()
        #expect(try await fixture.dispatcher().dispatchOnce() == 0, "not due yet")
        let wait: Double = try await fixture.connection.query(
            "SELECT extract(epoch FROM next_attempt_at - now())::float8 AS wait FROM webhook_deliveries WHERE endpoint_id = $1",
            [endpoint.id])[0].decode("wait")
        #expect(wait > 100 && wait <= 120, "\(wait)")
    }

    @Test("a host name resolving to loopback is refused at connect time, before a byte is sent", .postgresDatabase)
    func resolvedToLoopback() async throws {
        let fixture = try await DeliveryFixture()
        let target = try TargetURL("http://localhost:\(fixture.server.port)/hook", allowingHTTP: true, policy: .publicOnly)
        let (endpoint, _) = try await fixture.endpoints.add(target, eventTypes: [], organizationID: fixture.organization.id)
        fixture.server.respond(to: "/hook", with: .status(200))
        try await fixture.event()
        try await fixture.dispatcher(policy: .publicOnly).dispatchOnce()
        #expect(fixture.server.requests.isEmpty)
        let attempt = try #require(try await fixture.attempts(endpoint.id).first)
        #expect(attempt.outcome == "refused" && attempt.status == nil)
        let error = try #require(try await fixture.deliveries(endpoint.id).first?.lastError)
        #expect(error.contains("not at an address") && !error.contains("127.0.0.1"), "\(error)")
    }

    @Test("two dispatchers share the work: every delivery once", .postgresDatabase)
    func twoDispatchers() async throws {
        let fixture = try await DeliveryFixture()
        fixture.server.respond(to: "/a", with: .status(200))
        fixture.server.respond(to: "/b", with: .status(200))
        _ = try await fixture.endpoint("/a")
        _ = try await fixture.endpoint("/b")
        for _ in 0..<25 { try await fixture.event() }
        let (first, second) = (try await fixture.dispatcher(), try await fixture.dispatcher())
        async let a: Int = { var total = 0; while true { let n = try await first.dispatchOnce(); total += n; if n == 0 { return total } } }()
        async let b: Int = { var total = 0; while true { let n = try await second.dispatchOnce(); total += n; if n == 0 { return total } } }()
        let (done1, done2) = try await (a, b)
        #expect(done1 + done2 == 50)
        let keys = fixture.server.requests.map { "\($0.path) \($0.header("webhook-id") ?? "")" }
        #expect(keys.count == 50 && Set(keys).count == 50)
    }

    @Test("a dispatcher that dies mid-delivery loses nothing: its lease runs out and another sends the same message", .postgresDatabase)
    func lostLease() async throws {
        let fixture = try await DeliveryFixture()
        let (endpoint, secret) = try await fixture.endpoint()
        fixture.server.respond(to: "/hook", with: .status(200))
        let webhookID = try await fixture.event()
        let dying = DeliveryQueue(database: fixture.connection)
        try await dying.fanOut()
        let claimed = try #require(try await dying.claim(limit: 10, perEndpoint: 4).first)
        #expect(try await fixture.dispatcher().dispatchOnce() == 0, "leased")
        // The dispatcher never comes back: its lease runs out (as if a minute had passed).
        _ = try await fixture.connection.query(
            "UPDATE webhook_deliveries SET lease_expires_at = now() - interval '1 second' WHERE id = $1", [claimed.id])
        #expect(try await fixture.dispatcher().dispatchOnce() == 1)
        let late = DeliveryQueue.AttemptRecord(status: 200, error: nil, latencyMilliseconds: 1, responseExcerpt: nil, decision: .delivered)
        #expect(try await !dying.record(claimed, late), "the dead dispatcher's lease is gone")
        #expect(fixture.server.requests.compactMap { $0.header("webhook-id") } == [webhookID])
        #expect(try await fixture.independentlyVerified(fixture.server.requests, secret: secret) == ["ok"])
        #expect(try await fixture.deliveries(endpoint.id).map(\.attempts) == [2])
    }

    @Test("replay sends past events again with their own ids, to endpoints added since too, with a fresh retry schedule", .postgresDatabase)
    func replay() async throws {
        let fixture = try await DeliveryFixture()
        // Every event of this test, however long a loaded machine takes over it (a fixed minute missed the first).
        let since = Date().addingTimeInterval(-1)
        fixture.server.respond(to: "/hook", with: .status(200))
        fixture.server.respond(to: "/late", with: .status(200))
        let (first, secret) = try await fixture.endpoint("/hook")
        let ids = [try await fixture.event(), try await fixture.event("analysis.failed")]
        let dispatcher = try await fixture.dispatcher(waits: [])
        try await dispatcher.dispatchOnce()
        let (late, _) = try await fixture.endpoint("/late", events: ["analysis.failed"])
        let queue = DeliveryQueue(database: fixture.connection)
        #expect(try await queue.replay(since: since, endpoint: nil, .organization(UUID())) == 0, "another organization's")
        #expect(try await queue.replay(since: since, endpoint: nil, .organization(fixture.organization.id)) == 3)
        try await dispatcher.dispatchOnce()
        let received = fixture.server.requests.map { "\($0.path) \($0.header("webhook-id") ?? "")" }
        #expect(received.sorted() == ["/hook \(ids[0])", "/hook \(ids[0])", "/hook \(ids[1])", "/hook \(ids[1])", "/late \(ids[1])"].sorted())
        #expect(try await fixture.independentlyVerified(fixture.server.requests.filter { $0.path == "/hook" }, secret: secret) == ["ok", "ok", "ok", "ok"])
        // A failure after a replay is retried again (the schedule started over), not dead at once.
        fixture.server.respond(to: "/late", with: .status(500))
        #expect(try await queue.replay(since: since, endpoint: late.id, .allOrganizations) == 1)
        let retrying = try await fixture.dispatcher(waits: [0])
        try await retrying.dispatchOnce()
        #expect(try await fixture.deliveries(late.id).map(\.state) == ["pending"])
        let listed = try await queue.deliveries(endpoint: first.id, .allOrganizations, limit: 10)
        #expect(listed.count == 2 && listed.allSatisfy { $0.state == "delivered" && $0.attempts == 2 && $0.lastStatus == 200 })
    }
}
