@testable import Rules
import LandmarkTracks
import SyntheticMotion
import Testing

/// A hold is timed on the body, not on the picture: a stock plank edited from
/// two camera takes (cuts at 0.5, 4.5 and 8.5 s of a 9 s clip) was held 8.0 s
/// of 8.5–9.0 s, each cut's jump read as the trunk moving.
@Suite("A plank filmed in takes")
struct CameraCutHoldTests {
    /// `track` with every picture landmark from `from` (milliseconds) on moved by
    /// `dx`, `dy` (fractions of the frame): the video cut to another camera.
    static func cut(_ track: LandmarkTrack, from: Int, dx: Float, dy: Float) -> LandmarkTrack {
        var changed = track
        for index in changed.frames.indices where changed.frames[index].timestampMilliseconds >= from {
            for pose in changed.frames[index].poses.indices {
                changed.frames[index].poses[pose].landmarks = changed.frames[index].poses[pose].landmarks.map {
                    TrackLandmark(x: $0.x + dx, y: $0.y + dy, z: $0.z, visibility: $0.visibility, presence: $0.presence)
                }
            }
        }
        return changed
    }

    @Test("a cut in the middle of a plank neither breaks nor shortens the hold")
    func cutInTheMiddle() throws {
        let set = SessionCheckTests.set("plank") { $0.noise = 0.005 }
        let held = try #require(try SessionCheckTests.score("plank", set.track).holdMilliseconds)
        let middle = set.track.frames[set.track.frames.count / 2].timestampMilliseconds
        let edited = try SessionCheckTests.score("plank", Self.cut(set.track, from: middle, dx: 0.15, dy: -0.05))
        let heldThroughCut = try #require(edited.holdMilliseconds)
        #expect(abs(heldThroughCut - held) <= 100, "held \(held) ms, through a cut \(heldThroughCut) ms")
    }
}
