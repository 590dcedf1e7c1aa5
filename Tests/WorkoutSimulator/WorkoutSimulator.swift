import Foundation
import LandmarkTracks

/// A second, independent generator of synthetic workouts with ground truth:
/// bodies of many builds, exercise variants and tempos, any camera around the
/// person, and MediaPipe-like detector errors, for measuring the rules on data
/// they were not tuned on.
public enum WorkoutSimulator {
    /// squat, pushup, bicep_curl, lunge, overhead_press, jumping_jack, deadlift, plank
    public static let exercises = ["squat", "pushup", "bicep_curl", "lunge", "overhead_press", "jumping_jack", "deadlift", "plank"]

    /// One session, everything drawn from `seed` (body, variant, tempo, camera, noise...).
    /// `idle: true` = a set with no reps at all.
    public static func session(_ exercise: String, seed: UInt64, idle: Bool = false) -> SimulatedSession {
        make(exercise, seed: seed, idle: idle, rendered: true)
    }

    /// The same session as `session` but with no frames in its track: the truth and the
    /// noise-free motion only, for checking the plan without paying for the rendering.
    package static func plannedSession(_ exercise: String, seed: UInt64, idle: Bool = false) -> SimulatedSession {
        make(exercise, seed: seed, idle: idle, rendered: false)
    }

    private static func make(_ exercise: String, seed: UInt64, idle: Bool, rendered: Bool) -> SimulatedSession {
        precondition(exercises.contains(exercise), "no such exercise: \(exercise)")
        // The exercise and idleness are part of the seed, so that each (exercise, seed, idle) is its own draw.
        let basis: UInt64 = idle ? 0x9E37_79B9_7F4A_7C15 : 0xCBF2_9CE4_8422_2325
        let key = exercise.utf8.reduce(basis) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 } ^ seed
        var bodyRandom = SimRandom(seed: key, stream: 1), planRandom = SimRandom(seed: key, stream: 2)
        var cameraRandom = SimRandom(seed: key, stream: 3), detectorRandom = SimRandom(seed: key, stream: 4)
        var variationRandom = SimRandom(seed: key, stream: 5)
        let body = BodyShape.draw(&bodyRandom)
        var camera = CameraRig.draw(exercise, &cameraRandom)
        let plan = Routine.plan(exercise, idle: idle, body, &camera, &planRandom, variation: &variationRandom)
        camera.frame(on: framingPoints(plan, camera.framing))
        let fps = cameraRandom.weighted([(30.0, 0.35), (60, 0.15), (24, 0.14), (25, 0.14), (10, 0.03), (12, 0.03), (12.5, 0.02), (15, 0.04)])
        let count = Int(plan.script.duration * fps)
        let withHands = exercise == "bicep_curl" || exercise == "overhead_press"
        let model = DetectorModel.draw(frames: count, fps: fps, sideView: abs(abs(camera.yaw) - 90) < 40, height: body.height, &detectorRandom)
        var detector = Detector(model: model, body: body, withHands: withHands, random: detectorRandom)
        var frames: [LandmarkTrackFrame] = []
        frames.reserveCapacity(count)
        for index in 0..<(rendered ? count : 0) {
            let t = Double(index) / fps
            let skeleton = Skeleton(plan.script.pose(at: t), body, hands: withHands)
            frames.append(detector.observe(frame: index, ms: milliseconds(t), at: t, skeleton, camera.view(at: t)))
        }
        let header = LandmarkTrackHeader(fps: fps, width: camera.width, height: camera.height, source: "simulated")
        let summary = "\(exercise)\(idle ? " (idle)" : "") seed \(seed): \(plan.summary); \(body.summary); \(camera.summary) "
            + String(format: "at %g fps (%d frames); ", fps, count) + model.summary
        return SimulatedSession(
            exercise: exercise, seed: seed, idle: idle, summary: summary, track: LandmarkTrack(header: header, frames: frames),
            reps: plan.reps, hold: plan.hold, view: camera.viewName, cameraYaw: camera.yaw, kinematics: Kinematics(script: plan.script))
    }

    /// The landmarks the camera is framed on, over the moments the plan names.
    private static func framingPoints(_ plan: SessionPlan, _ framing: Framing) -> [Vec3] {
        let chosen: [Int] = switch framing {
        case .whole: Array(0..<33)
        case .upperBody: Array(0...24)
        case .closeUp: Array(11...32)
        }
        return plan.framingTimes.flatMap { t -> [Vec3] in
            let points = Skeleton(plan.script.pose(at: t), plan.script.body).points
            let crown = points[0] + Vec3(0, 0, 0.12 * plan.script.body.height / 1.75)
            return chosen.map { points[$0] } + (framing == .whole ? [crown] : [])
        }
    }
}
