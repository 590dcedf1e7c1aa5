import LandmarkTracks

/// One simulated set: the landmark track a detector would give, and the truth.
public struct SimulatedSession: Sendable {
    public var exercise: String
    public var seed: UInt64
    public var idle: Bool
    /// One line describing what was drawn: variant, body, stance, tempo, pauses, camera
    /// yaw/pitch/height/distance/fov, frame size, fps, noise level — for failure messages.
    public var summary: String
    public var track: LandmarkTrack
    /// Empty for idle sets and planks.
    public var reps: [SimulatedRep]
    /// Planks only (nil for idle planks or rep exercises).
    public var hold: SimulatedHold?
    /// The camera's view of the person: "front", "three-quarter", "side" or "back" (from the yaw below).
    public var view: String
    /// Camera yaw around the person, degrees: 0 in front of them, ±90 at their side (+ their left), 180 behind.
    public var cameraYaw: Double
    /// The session's noise-free motion, to measure the truth on.
    package var kinematics: Kinematics
}

/// One rep as performed.
public struct SimulatedRep: Sendable {
    /// Leaves the rest position.
    public var startMs: Int
    /// The deepest point (the top of a curl, press or deadlift; the middle of a pause there).
    public var turnMs: Int
    /// Back at rest.
    public var endMs: Int
    public var faults: Set<String>
    /// Missed the depth or range target (and so carries that fault), yet clearly a rep.
    public var partial: Bool
    /// The sides the rep works (both, or the one arm or front leg).
    package var sides: [BodySide]
    /// Values the plan set for the turn.
    package var planned: [PlannedValue]
}

/// A plank as held.
public struct SimulatedHold: Sendable {
    /// Time in the plank with the shoulder–ankle line within 30° of level.
    public var heldMs: Int
    public var faults: [SimulatedFaultSpan]
    /// The stretches held, milliseconds.
    package var spans: [Range<Int>]
}

/// A stretch of a hold with a fault.
public struct SimulatedFaultSpan: Sendable {
    public var code: String
    public var startMs: Int
    public var endMs: Int
}

/// The noise-free motion of a session, for measuring the truth.
package struct Kinematics: Sendable {
    let script: MotionScript

    /// A true measure at a moment (milliseconds).
    package func value(_ measure: TrueMeasure, atMs ms: Int) -> Double {
        values([measure], atMs: ms)[0]
    }

    /// Several true measures at one moment (milliseconds).
    package func values(_ measures: [TrueMeasure], atMs ms: Int) -> [Double] {
        let skeleton = Skeleton(script.pose(at: Double(ms) / 1000), script.body, hands: measures.contains { $0.needsHands })
        return measures.map { $0.value(in: skeleton) }
    }
}
