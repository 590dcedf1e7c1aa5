import Analysis
import Foundation
import Landmarkers
import LandmarkTracks
import Media
import Testing
import TestSupport

/// Videos through the decode and landmark stages, as `spotter landmarks` runs them.
@Suite("Landmarks of videos")
struct VideoLandmarksTests {
    struct Track {
        var header: LandmarkTrackHeader
        var frames: [LandmarkTrackFrame]
        var summary: LandmarkSummary
    }

    static func track(_ path: String, options: LandmarkOptions = LandmarkOptions()) async throws -> Track {
        let lines = LockedLines()
        let summary = try await LandmarkExtraction.run(
            inputPath: path, options: options, installation: TestAssets.installation, write: lines.append)
        let decoder = JSONDecoder()
        let all = lines.all
        return Track(
            header: try decoder.decode(LandmarkTrackHeader.self, from: all[0]),
            frames: try all.dropFirst().map { try decoder.decode(LandmarkTrackFrame.self, from: $0) },
            summary: summary)
    }

    struct VideoExpectations: Decodable {
        struct Frame: Decodable {
            var timestamp_ms: Int
            var checksum: UInt32
            var poses: Int
            var landmarks: [Body]?
        }

        struct Body: Decodable {
            var landmarks: [[Double?]]
            var world: [[Double?]]
        }

        var width: Int
        var height: Int
        var frames: [Frame]

        static func load() throws -> VideoExpectations {
            let url = try #require(
                Bundle.module.url(forResource: "vtest-video", withExtension: "json", subdirectory: "Expectations"))
            return try JSONDecoder().decode(VideoExpectations.self, from: Data(contentsOf: url))
        }
    }

    @Test("vtest.avi in video mode gives MediaPipe's own landmarks on the same frames, within 1e-3")
    func vtestParity() async throws {
        let expected = try VideoExpectations.load()
        let path = TestAssets.photo("vtest.avi")
        // The same frames: Spotter's decoder gives the pixels MediaPipe's run was fed.
        var checksums = [UInt32]()
        for try await frame in try VideoReader(path: path).frames() { checksums.append(frameChecksum(frame.pixels)) }
        #expect(checksums == expected.frames.map(\.checksum))

        var options = LandmarkOptions()
        options.crowdCheckIntervalMilliseconds = nil  // MediaPipe's own run followed one person and looked for no one else
        let track = try await Self.track(path, options: options)
        #expect(track.header.fps == 10 && track.header.width == expected.width && track.header.height == expected.height)
        try #require(track.frames.count == 795)
        #expect(track.frames.map(\.timestampMilliseconds) == expected.frames.map(\.timestamp_ms))
        #expect(track.frames.map(\.poses.count) == expected.frames.map(\.poses))
        #expect(track.summary.framesWithPose == expected.frames.filter { $0.poses > 0 }.count)
        var compared = 0
        for (frame, wanted) in zip(track.frames, expected.frames) {
            guard let bodies = wanted.landmarks else { continue }
            for (pose, body) in zip(frame.poses, bodies) {
                compare(pose.landmarks, body.landmarks, "\(frame.timestampMilliseconds) ms")
                compare(pose.world, body.world, "\(frame.timestampMilliseconds) ms world")
                compared += 1
            }
        }
        #expect(compared >= 15, "poses compared: \(compared)")
    }

    @Test("about once a second everyone in view is found besides the one followed, who is followed as before")
    func crowdChecks() async throws {
        let expected = try VideoExpectations.load()
        let track = try await Self.track(TestAssets.photo("vtest.avi"))
        try #require(track.frames.count == expected.frames.count)
        var checked: [Int] = []
        for (frame, wanted) in zip(track.frames, expected.frames) {
            #expect(wanted.poses == 0 ? frame.poses.isEmpty : frame.poses.count >= wanted.poses, "\(frame.timestampMilliseconds) ms")
            if frame.poses.count > wanted.poses { checked.append(frame.timestampMilliseconds) }
            for (pose, body) in zip(frame.poses, wanted.landmarks ?? []) {
                compare(pose.landmarks, body.landmarks, "\(frame.timestampMilliseconds) ms, the person followed")
            }
            for (index, other) in frame.poses.enumerated().dropFirst(wanted.poses) {
                #expect(other.landmarks.count == 33 && other.world.count == 33)
                let followed = try #require(frame.poses.first)
                let heads = zip(other.landmarks[0...10], followed.landmarks[0...10]).map { hypot(Double($0.x - $1.x), Double($0.y - $1.y)) }
                #expect(heads.reduce(0, +) / 11 > 0.01, "\(frame.timestampMilliseconds) ms: person \(index) is the one followed, found twice")
            }
        }
        // vtest.avi is a street with people walking, most of them small: a few checks find someone else.
        #expect(checked.count >= 3, "frames with others: \(checked.count) of about 79 checks")
        #expect(zip(checked, checked.dropFirst()).allSatisfy { $1 - $0 >= 1000 }, "checks closer than a second: \(checked)")
    }

    func compare(_ rows: [TrackLandmark], _ expected: [[Double?]], _ what: String) {
        #expect(rows.count == expected.count)
        for (index, (row, wanted)) in zip(rows, expected).enumerated() {
            let actual: [Double?] = [row.x, row.y, row.z, row.visibility, row.presence].map { $0.map(Double.init) }
            for (value, target) in zip(actual, wanted) {
                if let value, let target {
                    #expect(abs(value - target) <= 1e-3, "\(what) #\(index): \(actual) vs \(wanted)")
                } else {
                    #expect(value == nil && target == nil, "\(what) #\(index)")
                }
            }
        }
    }

    @Test("a person filmed upright and stored sideways gives upright landmarks, like the upright file")
    func rotatedFile() async throws {
        let upright = try await Self.track(try Clips.path("person.mp4"))
        let rotated = try await Self.track(try Clips.path("person-rotated.mp4"))
        #expect(rotated.header.width == 810 && rotated.header.height == 1080)
        #expect(upright.header.width == 810 && upright.header.height == 1080)
        try #require(rotated.frames.count == 10 && upright.frames.count == 10)
        for (turned, reference) in zip(rotated.frames, upright.frames) {
            let pose = try #require(turned.poses.first), expected = try #require(reference.poses.first)
            let nose = pose.landmarks[PoseLandmarkType.nose.rawValue]
            let ankle = pose.landmarks[PoseLandmarkType.leftAnkle.rawValue]
            #expect(nose.y < ankle.y, "upright: the nose above the ankle")
            // Left and right legs, close together in this photo, may trade places between
            // two encodes; the midpoints of each pair do not.
            let pairs: [(PoseLandmarkType, PoseLandmarkType)] = [
                (.nose, .nose), (.leftShoulder, .rightShoulder), (.leftHip, .rightHip),
                (.leftKnee, .rightKnee), (.leftAnkle, .rightAnkle),
            ]
            for (left, right) in pairs {
                let a = midpoint(pose, left, right), b = midpoint(expected, left, right)
                #expect(abs(a.x - b.x) < 0.02 && abs(a.y - b.y) < 0.02, "\(left): \(a) vs \(b)")
            }
        }
    }

    func midpoint(_ pose: TrackPose, _ left: PoseLandmarkType, _ right: PoseLandmarkType) -> (x: Float, y: Float) {
        let a = pose.landmarks[left.rawValue], b = pose.landmarks[right.rawValue]
        return ((a.x + b.x) / 2, (a.y + b.y) / 2)
    }

    @Test("--fps sets the analysis rate and the header's fps; a damaged file still gives its warning")
    func sampledAndDamaged() async throws {
        var options = LandmarkOptions()
        options.decoding.frameRate = 5
        let sampled = try await Self.track(TestAssets.photo("vtest.avi"), options: options)
        #expect(sampled.header.fps == 5)
        #expect(sampled.frames.count == 398 && sampled.frames.map(\.timestampMilliseconds) == (0..<398).map { $0 * 200 })

        let data = try Data(contentsOf: URL(fileURLWithPath: try Clips.path("h264-faststart.mp4")))
        let cut = FileManager.default.temporaryDirectory.appendingPathComponent("cut-\(UUID()).mp4")
        try data.prefix(data.count / 2).write(to: cut)
        defer { try? FileManager.default.removeItem(at: cut) }
        let partial = try await Self.track(cut.path)
        #expect(partial.frames.count > 3 && partial.frames.count < 30)
        #expect(partial.summary.warnings.contains { $0.hasPrefix("truncated_input:") })
    }
}

/// Lines written by the pipeline, collected for the test.
final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [Data] = []

    func append(_ line: Data) {
        lock.withLock { lines.append(line.dropLast()) }
    }

    var all: [Data] { lock.withLock { lines } }
}
