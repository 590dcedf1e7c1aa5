import Analysis
import Foundation
import LandmarkTracks
import Media
import Rules
import Testing
import TestSupport

/// Pictures of the reps' turns: the rendered squat video decoded again at each
/// rep's bottom, with the skeleton of its real MediaPipe track drawn.
@Suite("Pictures of the reps' turns")
struct RepThumbnailsTests {
    /// The skeleton's bone colour (SkeletonCanvas).
    static let bone = 0x3ddc84

    @Test("each rep of the squat video at its turn: the frame at 240 pixels with the skeleton drawn over the person")
    func squat() async throws {
        let video = TestAssets.photo("mannequin-squat.mp4")
        let (track, _) = try await LandmarkExtraction.track(inputPath: video, options: LandmarkOptions(), installation: TestAssets.installation)
        let report = Scorer(rule: try SessionAnalysisTests.rule("squat")).score(track).report
        try #require(report.repCount == 5)
        let pictures = try await RepThumbnails.make(video: video, track: track, at: report.reps.map(\.bottomMilliseconds))
        #expect(pictures.count == 5)
        let bare = try await RepThumbnails.make(video: video, track: track.withoutPoses, at: [report.reps[0].bottomMilliseconds])
        let plain = try Pixels(picture: bare[0], width: 240, height: 180)
        #expect(plain.count(Self.bone, tolerance: 40) < 20, "no skeleton where the track has no pose")
        for (rep, picture) in zip(report.reps, pictures) {
            let pixels = try Pixels(picture: picture, width: 240, height: 180)
            let drawn = pixels.count(Self.bone, tolerance: 40)
            #expect(drawn > 150, "rep \(rep.index): \(drawn) pixels of skeleton")
            // The hips as the track has them, in the picture: the skeleton passes there.
            let pose = try #require(track.frames.min { abs($0.timestampMilliseconds - rep.bottomMilliseconds) < abs($1.timestampMilliseconds - rep.bottomMilliseconds) }?.poses.first)
            let hip = pose.landmarks[23]
            let (x, y) = (Int(hip.x * 240), Int(hip.y * 180))
            let near = pixels.count(0xffffff, columns: max(0, x - 4)..<min(240, x + 5), rows: max(0, y - 4)..<min(180, y + 5), tolerance: 40)
            #expect(near > 3, "rep \(rep.index): the hip's joint drawn at \(x), \(y)")
        }
    }

    @Test("a file that is not a video is refused, naming it")
    func notAVideo() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-\(UUID()).mp4").path
        try Data("not a video at all".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let track = LandmarkTrack(header: LandmarkTrackHeader(fps: 30, width: 1, height: 1, source: path), frames: [])
        let error = await #expect(throws: MediaError.self) { _ = try await RepThumbnails.make(video: path, track: track, at: [0]) }
        #expect(error?.message.contains(path) == true, "\(String(describing: error))")
    }
}

extension LandmarkTrack {
    /// The same frames with nobody in them.
    var withoutPoses: LandmarkTrack {
        var copy = self
        copy.frames = frames.map { LandmarkTrackFrame(timestampMilliseconds: $0.timestampMilliseconds, poses: [], hands: nil) }
        return copy
    }
}
