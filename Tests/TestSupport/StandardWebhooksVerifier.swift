import Foundation

/// Webhook deliveries checked by PyPI's standardwebhooks (the scheme's reference
/// implementation, pinned and unpacked by `ops/fetch-test-data`), through
/// `ops/webhooks/verify.py`: independent of Spotter's own signing code. Each
/// is judged as of when it arrived (the scheme refuses timestamps over 5
/// minutes off, and a loaded test run may verify long after).
public enum StandardWebhooksVerifier {
    /// "ok" or "bad: reason" for each request, in order.
    public static func verify(_ requests: [LoopbackHTTPServer.Request], secret: String) async throws -> [String] {
        let deliveries: [[String: Any]] = requests.map { request in
            ["headers": Dictionary(request.headers.map { ($0.name.lowercased(), $0.value) }) { first, _ in first },
             "body": String(decoding: request.body, as: UTF8.self), "received": request.receivedAt.timeIntervalSince1970]
        }
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("deliveries-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: deliveries).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let script = SpotterProcess.repository.appendingPathComponent("ops/webhooks/verify.py").path
        let outcome = try await runSubprocess(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "exec python3 \"$0\" \"$1\" < \"$2\"", script, secret, input.path],
            environment: ["PYTHONPATH": TestAssets.testDataDirectory + "/python"])
        let lines = String(decoding: outcome.standardOutput, as: UTF8.self).split(separator: "\n").map(String.init)
        guard lines.count == requests.count else {
            throw VerifierFailure(description: "ops/webhooks/verify.py did not run (status \(outcome.status)): \(outcome.standardError)")
        }
        return lines
    }

    struct VerifierFailure: Error, CustomStringConvertible {
        let description: String
    }
}
