import Foundation
import Rules
import SyntheticMotion
import Testing

/// Whole reports, byte for byte, for one synthetic set of every exercise: any
/// change in what the engine reports shows up here as a diff to review.
/// `SPOTTER_UPDATE_GOLDEN=1 swift test --filter GoldenReportTests` rewrites them.
@Suite("Golden reports")
struct GoldenReportTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    @Test("reports match the reviewed ones", arguments: SyntheticSessions.exercises)
    func golden(_ exercise: String) throws {
        var conditions = SetConditions()
        conditions.reps = 4
        // Seeds whose sets carry faults of more than one code (the plank's first is 2027).
        let set = SyntheticSessions.make(exercise, conditions, seed: exercise == "plank" ? 2027 : 2030)
        var report = try Scorer(rule: RuleFixtures.book.rule(for: exercise)).score(set.track).report
        report.source.path = "synthetic/\(exercise).jsonl"
        let produced = report.jsonData() + Data("\n".utf8)
        let file = Self.directory.appendingPathComponent("\(exercise).json")
        if ProcessInfo.processInfo.environment["SPOTTER_UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
            try produced.write(to: file)
        }
        let expected = try Data(contentsOf: file)
        #expect(
            String(decoding: produced, as: UTF8.self) == String(decoding: expected, as: UTF8.self),
            "the \(exercise) report changed; review it and rerun with SPOTTER_UPDATE_GOLDEN=1")
    }

    @Test("a stored report reads back as it was, byte for byte", arguments: SyntheticSessions.exercises)
    func roundTrip(_ exercise: String) throws {
        let stored = try Data(contentsOf: Self.directory.appendingPathComponent("\(exercise).json"))
        let report = try SessionReport.decode(stored)
        #expect(report.exercise == exercise)
        #expect(report.jsonData() + Data("\n".utf8) == stored)
        #expect(try SessionReport.decode(report.jsonData(pretty: false)) == report)
    }

    @Test("a document of another format is not read as a report")
    func otherFormat() throws {
        let stored = try String(decoding: Data(contentsOf: Self.directory.appendingPathComponent("squat.json")), as: UTF8.self)
        let other = Data(stored.replacingOccurrences(of: "spotter.report/v1", with: "spotter.report/v9").utf8)
        #expect(throws: DecodingError.self) { try SessionReport.decode(other) }
    }
}
