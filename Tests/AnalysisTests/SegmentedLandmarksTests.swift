import Analysis
import Foundation
import LandmarkTracks
import Media
import Rules
import Testing
import TestSupport

/// One video landmarked in parts on several cores gives what one pass gives:
/// the same frames, the same people found, landmarks within a small distance,
/// and the same counts.
@Suite("Landmarks of a video in parts, side by side")
struct SegmentedLandmarksTests {
    @Test("two parts of vtest.avi (80 s): the same frames and people as one pass, landmarks within 0.005 of the picture")
    func vtest() async throws {
        let path = TestAssets.photo("vtest.avi")
        let single = try await VideoLandmarksTests.track(path)
        var options = LandmarkOptions()
        options.threads = 2
        let parts = try await VideoLandmarksTests.track(path, options: options)
        #expect(parts.header == single.header)
        #expect(parts.frames.map(\.timestampMilliseconds) == single.frames.map(\.timestampMilliseconds))
        #expect(parts.frames.map { $0.poses.isEmpty } == single.frames.map { $0.poses.isEmpty })
        #expect(parts.summary.frames == single.summary.frames && parts.summary.framesWithPose == single.summary.framesWithPose)
        let apart = zip(parts.frames, single.frames).compactMap { a, b -> Double? in
            guard let p = a.poses.first, let q = b.poses.first else { return nil }
            return Self.distance(p.landmarks, q.landmarks)
        }
        let mean = apart.reduce(0, +) / Double(max(1, apart.count))
        #expect(!apart.isEmpty && mean < 0.005, "mean distance \(mean)")
    }

    @Test("the rendered squat (12 s) analysed in two parts counts and judges as one pass does")
    func squatCounts() async throws {
        let rule = try SessionAnalysisTests.rule("squat")
        var options = AnalysisOptions()
        options.landmarks.threads = 1
        let single = try await SessionAnalysis.analyzeVideo(
            at: TestAssets.photo("mannequin-squat.mp4"), rule: rule, options: options, installation: TestAssets.installation)
        options.landmarks.threads = 2
        let parts = try await SessionAnalysis.analyzeVideo(
            at: TestAssets.photo("mannequin-squat.mp4"), rule: rule, options: options, installation: TestAssets.installation)
        #expect(parts.report.repCount == single.report.repCount && single.report.repCount == 5)
        #expect(parts.report.faults.map(\.code) == single.report.faults.map(\.code))
        #expect(parts.report.source.frames == single.report.source.frames)
    }

    @Test("a video is cut into parts of at least 4 s, one per thread (two at most on the GPU); a short or unknown one is one part")
    func spans() {
        var options = LandmarkOptions()
        options.threads = 16
        #expect(options.partsAtOnce == 16)
        options.delegate = .gpu
        #expect(options.partsAtOnce == 2)
        options.threads = 1
        #expect(options.partsAtOnce == 1)
        #expect(LandmarkOptions.parts(durationMilliseconds: 20_000, threads: 2) == [0..<10_000, 10_000..<Int.max])
        #expect(LandmarkOptions.parts(durationMilliseconds: 9_000, threads: 4) == [0..<4_500, 4_500..<Int.max])
        #expect(LandmarkOptions.parts(durationMilliseconds: 3_000, threads: 8) == [0..<Int.max])
        #expect(LandmarkOptions.parts(durationMilliseconds: nil, threads: 8) == [0..<Int.max])
        #expect(LandmarkOptions.parts(durationMilliseconds: 60_000, threads: 1) == [0..<Int.max])
    }

    /// The mean distance apart of two bodies' landmarks, in the picture's size (x and y).
    static func distance(_ a: [TrackLandmark], _ b: [TrackLandmark]) -> Double {
        var total = 0.0
        for (p, q) in zip(a, b) { total += Double(abs(p.x - q.x) + abs(p.y - q.y)) }
        return total / Double(2 * max(1, a.count))
    }
}
