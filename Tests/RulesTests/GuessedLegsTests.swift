@testable import Rules
import LandmarkTracks
import SyntheticMotion
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
            for pose in turned.frames[index].poses.indices {
                let world = turned.frames[index].poses[pose].world
                guard let current = trunk(turned.frames[index]) else { continue }
                turned.frames[index].poses[pose].world = world.map { rotate($0, from: current, to: target) }
            }
        }
        return turned
    }

    /// The unit vector from the hips' midpoint to the shoulders' midpoint, in world coordinates.
    private static func trunk(_ frame: LandmarkTrackFrame) -> SIMD3<Double>? {
        guard let world = frame.poses.first?.world, world.count == 33 else { return nil }
        let point = { (index: Int) in SIMD3(Double(world[index].x), Double(world[index].y), Double(world[index].z)) }
        let direction = (point(11) + point(12)) / 2 - (point(23) + point(24)) / 2
        let length = (direction * direction).sum().squareRoot()
        return length > 0 ? direction / length : nil
    }

    /// `landmark` turned about the origin (the hips) by the rotation that takes `from` to `to`.
    private static func rotate(_ landmark: TrackLandmark, from: SIMD3<Double>, to: SIMD3<Double>) -> TrackLandmark {
        let cross = SIMD3(from.y * to.z - from.z * to.y, from.z * to.x - from.x * to.z, from.x * to.y - from.y * to.x)
        let sine = (cross * cross).sum().squareRoot(), cosine = (from * to).sum()
        guard sine > 1e-9 else { return landmark }
        let axis = cross / sine
        let point = SIMD3(Double(landmark.x), Double(landmark.y), Double(landmark.z))
        let along = axis * (axis * point).sum()
        let across = SIMD3(axis.y * point.z - axis.z * point.y, axis.z * point.x - axis.x * point.z, axis.x * point.y - axis.y * point.x)
        let turned = point * cosine + across * sine + along * (1 - cosine)
        var moved = landmark
        (moved.x, moved.y, moved.z) = (Float(turned.x), Float(turned.y), Float(turned.z))
        return moved
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
