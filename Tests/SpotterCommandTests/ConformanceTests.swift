import Foundation
import Postgres
import TestSupport
import Testing

/// The live server against its own OpenAPI document: PyPI's schemathesis
/// (pinned, installed by `ops/fetch-test-data`) generates valid and invalid
/// requests for every operation, follows the links it infers between them, and
/// checks each answer's status, content type, headers and body against the
/// document (`ops/conformance/schemathesis.toml` says what JSON Schema cannot).
@Suite("The API conforms to its OpenAPI document", .timeLimit(.minutes(5)))
struct ConformanceTests {
    static let schemathesis = TestAssets.testDataDirectory + "/schemathesis"

    @Test("schemathesis finds no failure on any operation", .postgresDatabase)
    func schemathesisFindsNothing() async throws {
        try #require(
            FileManager.default.fileExists(atPath: Self.schemathesis + "/schemathesis"),
            "schemathesis is not installed at \(Self.schemathesis): run ops/fetch-test-data")
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-conformance-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: storage) }
        func randomKey() -> String { Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString() }
        let environment = [
            "SPOTTER_DATABASE_URL": PostgresDatabase.url, "SPOTTER_STORAGE_DIR": storage,
            "SPOTTER_STORAGE_KEY": randomKey(), "SPOTTER_WEBHOOK_KEY": randomKey(),
        ]
        #expect(try await SpotterProcess.run(["migrate"], environment: environment).status == 0)
        let created = try await SpotterProcess.run(["keys", "create", "--organization", "Conformance", "--json"], environment: environment)
        let key = try #require((try JSONSerialization.jsonObject(with: created.standardOutput) as? [String: String])?["key"])
        // No worker: the sessions it makes stay queued, and no URL it invents is fetched.
        let (server, address) = try ServeCommandTests.startServer(["--rate-limit", "100000"], environment: environment)
        defer { if server.isRunning { server.terminate() } }

        let outcome = try await runSubprocess(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "python3", "-m", "schemathesis.cli",
                "--config-file", SpotterProcess.repository.appendingPathComponent("ops/conformance/schemathesis.toml").path,
                "run", "\(address)/openapi.json", "--url", address, "-H", "Authorization: Bearer \(key)",
                "--max-examples", "100", "--seed", "1", "--no-color",
            ],
            environment: ["PYTHONPATH": Self.schemathesis, "SCHEMATHESIS_HOOKS": ""])
        let report = String(decoding: outcome.standardOutput, as: UTF8.self)
        #expect(outcome.status == 0, "schemathesis failed (status \(outcome.status)):\n\(report.suffix(6000))\n\(outcome.standardError.suffix(2000))")
        // Every operation schemathesis finds in the document selected and tested.
        let selected = try #require(report.firstMatch(of: /Selected: (\d+)\/(\d+)/), "\(report.suffix(1500))")
        #expect(selected.output.1 == selected.output.2 && Int(selected.output.1) ?? 0 >= 14, "\(report.suffix(1500))")
        #expect(report.contains("Tested: \(selected.output.1)"), "\(report.suffix(1500))")
    }
}
