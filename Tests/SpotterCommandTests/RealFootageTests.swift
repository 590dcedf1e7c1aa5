import Foundation
import TestSupport
import Testing

/// The hand-counted clips of real people (`../shared/real-dev`, or
/// `SPOTTER_REAL_FOOTAGE`): where they are, and whether this run must have them.
enum RealFootage {
    static let directory = ProcessInfo.processInfo.environment["SPOTTER_REAL_FOOTAGE"]
        ?? SpotterProcess.repository.deletingLastPathComponent().appendingPathComponent("shared/real-dev").path

    static var truthFile: String { directory + "/truth.json" }

    static var isPresent: Bool { FileManager.default.fileExists(atPath: truthFile) }

    /// In CI the set must be there: its absence fails the run instead of skipping it.
    static var isRequired: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// One clip's hand count, as `truth.json` gives it.
    struct Truth: Decodable {
        var exercise: String
        /// The accepted rep counts (two or three where the clip starts or ends mid-rep).
        var reps: [Int]?
        /// For holds: the accepted time held, seconds.
        var holdS: [Double]?
    }

    static func truth() throws -> [String: Truth] {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode([String: Truth].self, from: Data(contentsOf: URL(fileURLWithPath: truthFile)))
    }
}

/// `spotter analyze` on real people filmed by real cameras, checked against
/// their hand counts: the real path (decode, landmarks, rules) on a subset of
/// the development set's tuning clips — every exercise but the plank, front,
/// side, three-quarter and back views, portrait phones, a 60 frames/s 1080p
/// clip, legs out of the picture, two people in view, an occluded bar, incline
/// push-ups — that runs in about two minutes on two cores. `ops/bench accuracy
/// --real DIR` reports the whole set, held-out clips included.
@Suite(
    "spotter analyze on real footage", .serialized,
    .enabled(
        if: RealFootage.isPresent || RealFootage.isRequired,
        "the real-footage set is not at \(RealFootage.directory) (set SPOTTER_REAL_FOOTAGE): skipped"))
struct RealFootageTests {
    static let clips = [
        "curl-02", "deadlift-02", "lunge-04", "lunge-05", "press-02", "pushup-02", "pushup-04", "squat-01", "squat-02",
        "squat-06",
    ]

    @Test("the count is one the hand count accepts, and the report says how sure it is", arguments: clips)
    func count(_ clip: String) async throws {
        try #require(RealFootage.isPresent, "CI=true and the real-footage set is missing: \(RealFootage.truthFile)")
        let truth = try #require(try RealFootage.truth()[clip], "\(clip) is not in truth.json")
        let accepted = try #require(truth.reps, "\(clip) is a hold")
        let video = RealFootage.directory + "/\(clip).mp4"
        let outcome = try await SpotterProcess.run(["analyze", video, "--exercise", truth.exercise, "--json"])
        try #require(outcome.status == 0, "\(clip): \(outcome.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: outcome.standardOutput) as? [String: Any])
        let count = try #require(report["rep_count"] as? Int)
        #expect(accepted.contains(count), "\(clip): counted \(count), the hand count accepts \(accepted); \(report["warnings"] ?? [])")
        #expect(["high", "medium", "low"].contains(report["count_confidence"] as? String))
        #expect(report["view"] is String && report["excluded"] is [Any] && report["not_judged"] is [Any])
    }

    @Test("with a coach beside the athlete, the report says two people were in view and which one it scored")
    func twoPeople() async throws {
        try #require(RealFootage.isPresent, "CI=true and the real-footage set is missing: \(RealFootage.truthFile)")
        // pushup-02: a coach crouches beside and above the woman doing push-ups for most of the clip.
        let outcome = try await SpotterProcess.run(["analyze", RealFootage.directory + "/pushup-02.mp4", "--exercise", "pushup", "--json"])
        try #require(outcome.status == 0, "\(outcome.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: outcome.standardOutput) as? [String: Any])
        let warnings = try #require(report["warnings"] as? [String])
        let people = try #require(warnings.first { $0.hasPrefix("people: ") }, "\(warnings)")
        #expect(people.hasPrefix("people: up to 2 people in view (another person in "), "\(people)")
        #expect(people.contains("scored the one nearer the bottom of the picture"), "\(people)")
        #expect(try RealFootage.truth()["pushup-02"]?.reps?.contains(report["rep_count"] as? Int ?? -1) == true)
    }
}
