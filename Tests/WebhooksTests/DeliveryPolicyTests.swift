import Foundation
import Testing
import TestSupport
@testable import Webhooks

@Suite("Delivery policy")
struct DeliveryPolicyTests {
    let policy = DeliveryPolicy()
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func decide(_ outcome: DeliveryPolicy.Outcome, attempt: Int = 1, failingSince: Date? = nil, seed: UInt64 = 1) -> DeliveryPolicy.Decision {
        var random = SeededGenerator(seed: seed)
        return policy.decide(outcome, attempt: attempt, now: now, failingSince: failingSince, random: &random)
    }

    func wait(_ decision: DeliveryPolicy.Decision) -> TimeInterval? {
        if case .retry(let at, _) = decision { at.timeIntervalSince(now) } else { nil }
    }

    @Test("2xx is delivered; 410 disables the endpoint; 3xx and other statuses are failures")
    func statuses() {
        for status in [200, 201, 204, 299] { #expect(decide(.answered(status: status, retryAfter: nil)) == .delivered) }
        guard case .disableEndpoint(let reason) = decide(.answered(status: 410, retryAfter: nil)) else { Issue.record("410"); return }
        #expect(reason.contains("410"))
        for status in [301, 302, 400, 404, 500, 503] {
            guard case .retry(_, let reason) = decide(.answered(status: status, retryAfter: nil)) else { Issue.record("\(status)"); continue }
            #expect(reason.contains(String(status)))
        }
        #expect(wait(decide(.noAnswer(reason: "could not connect"))) != nil)
    }

    @Test("retries follow the schedule within ±20 %, then the delivery is dead")
    func schedule() {
        let expected: [TimeInterval] = [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400]
        for (index, base) in expected.enumerated() {
            var seen: [TimeInterval] = []
            for seed in 1...40 {
                let waited = wait(decide(.answered(status: 500, retryAfter: nil), attempt: index + 1, seed: UInt64(seed)))
                seen.append(waited ?? -1)
            }
            #expect(seen.allSatisfy { $0 >= base * 0.8 && $0 <= base * 1.2 }, "attempt \(index + 1)")
            #expect(Set(seen).count > 30, "jittered")
        }
        guard case .dead(let reason) = decide(.noAnswer(reason: "timed out"), attempt: 10) else { Issue.record("10th"); return }
        #expect(reason.contains("10 attempts") && reason.contains("timed out"))
    }

    @Test("429 and 503 wait as Retry-After says, in seconds or as a date, at most a day; other statuses ignore it")
    func retryAfter() {
        #expect(wait(decide(.answered(status: 429, retryAfter: "120"))) == 120)
        #expect(wait(decide(.answered(status: 503, retryAfter: "Fri, 15 Jan 2027 08:10:00 GMT"))) == 600)  // now is 08:00:00 GMT
        #expect(wait(decide(.answered(status: 503, retryAfter: "9999999"))) == 86_400)
        let ignored = wait(decide(.answered(status: 500, retryAfter: "600")))
        #expect(ignored.map { $0 >= 4 && $0 <= 6 } == true)
        let unreadable = wait(decide(.answered(status: 429, retryAfter: "soon")))
        #expect(unreadable.map { $0 >= 4 && $0 <= 6 } == true)
    }

    @Test("an endpoint failing for five days is disabled on its next failure, saying why")
    func fiveDays() {
        let recent = decide(.answered(status: 500, retryAfter: nil), attempt: 3, failingSince: now.addingTimeInterval(-4 * 86_400))
        #expect(wait(recent) != nil)
        guard case .disableEndpoint(let reason) = decide(.answered(status: 500, retryAfter: nil), attempt: 3, failingSince: now.addingTimeInterval(-5 * 86_400))
        else { Issue.record("not disabled"); return }
        #expect(reason.contains("5 days") && reason.contains("500"))
        #expect(decide(.answered(status: 200, retryAfter: nil), failingSince: now.addingTimeInterval(-9 * 86_400)) == .delivered)
    }
}
