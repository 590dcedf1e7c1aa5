@testable import Rules
import LandmarkTracks
@testable import SyntheticMotion
import Testing

/// When the legs leave the picture (a phone brought close to a lifter crouched
/// over the bar), MediaPipe guesses them, and the guessed hip angle swings from
/// bent to straight while the trunk stays bent over the bar: a fresh public clip
/// counted 7 such "deadlifts" after its 4 real ones. A lockout stands the trunk
/// up (deadlift v8: within 50° of vertical at some moment of the rep).
@Suite("Deadlifts on guessed legs")
struct GuessedLegsTests {
    /// `track` with each frame's world landmarks turned about the hips so that the
    /// trunk keeps the direction it has at `frozenAt`: every joint angle reads as
    /// before, the trunk never stands up.
    static func trunkFrozen(_ track: LandmarkTrack, at frozenAt: Int) throws -> LandmarkTrack {
        let frozen = try #require(track.frames.min { abs($0.timestampMilliseconds - frozenAt) < abs($1.timestampMilliseconds - frozenAt) })
        let target = try #require(trunk(frozen))
        var turned = track
        for index in turned.frames.indices {
            guard let current = trunk(turned.frames[index]), let degrees = Geometry.angle(current, target), degrees > 1e-6 else { continue }
            turned.frames[index].poses[0].world = turned.frames[index].poses[0].world.map { landmark in
                let point = rotate(Vector(Double(landmark.x), Double(landmark.y), Double(landmark.z)), about: cross(current, target), by: degrees)
                var moved = landmark
                (moved.x, moved.y, moved.z) = (Float(point.x), Float(point.y), Float(point.z))
                return moved
            }
        }
        return turned
    }

    /// The direction from the hips' midpoint to the shoulders' midpoint, in world coordinates.
    private static func trunk(_ frame: LandmarkTrackFrame) -> Vector? {
        guard let world = frame.poses.first?.world, world.count == 33 else { return nil }
        let point = { (index: Int) in Vector(Double(world[index].x), Double(world[index].y), Double(world[index].z)) }
        return (point(11) + point(12)) / 2 - (point(23) + point(24)) / 2
    }

    @Test("hips that read straight under a trunk still bent over the bar are no rep, and the warning names the trunk",
          arguments: [CameraSetup.left, .front])
    func trunkBentOver(camera: CameraSetup) throws {
        let set = SessionCheckTests.set("deadlift") { $0.reps = 4; $0.camera = camera; $0.noise = 0.005 }
        let counted = try SessionCheckTests.score("deadlift", set.track)
        #expect(counted.repCount == 4, "\(counted.warnings)")
        let bottom = try #require(counted.reps.first?.startMilliseconds)
        let report = try SessionCheckTests.score("deadlift", Self.trunkFrozen(set.track, at: bottom))
        #expect(report.repCount == 0, "\(report.reps.map(\.startMilliseconds))")
        #expect(report.warnings.contains { $0.contains("condition on trunk") }, "\(report.warnings)")
    }
}
