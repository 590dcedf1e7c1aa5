/// One exercise's rules, read from a file in `Rules/` (see Rules/README.md).
public struct ExerciseRule: Sendable {
    /// The name on the command line and in reports: `squat`.
    public var exercise: String
    public var version: Int
    public var title: String
    /// The camera view the rules are written for.
    public var view: CameraView
    /// Landmarks less visible than this are not trusted.
    var visibilityThreshold: Double
    /// One Euro parameters for the landmarks; nil turns smoothing off.
    var smoothing: LandmarkSmoothing?
    var signals: [SignalDefinition]
    var movement: Movement
    var metrics: [MetricDefinition]
    var faults: [FaultDefinition]
    /// The file the rules came from.
    public var file: String

    /// `squat@3`, as reports carry it.
    public var rulesVersion: String { "\(exercise)@\(version)" }

    /// The fault codes this rule can report.
    public var faultCodes: [String] {
        faults.map(\.code).reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }

    /// Whether any signal needs hand landmarks.
    public var usesHands: Bool { signals.contains { $0.kind == .wristFlexion } }

    /// What the rule counts, in words: "reps on knee" or "hold on body_level".
    public var movementSummary: String {
        switch movement {
        case .reps: "reps on \(keySignal)"
        case .hold: "hold on \(keySignal)"
        }
    }

    /// The signals a session is judged on with these faults: the movement's,
    /// the metrics' and the faults' (with their events' triggers).
    func signalsJudged(by faults: [FaultDefinition]) -> Set<String> {
        var names: Set<String> = [keySignal]
        switch movement {
        case .reps(let reps): names.formUnion(reps.require.map(\.signal))
        case .hold(let hold): names.formUnion(hold.conditions.map(\.signal))
        }
        names.formUnion(metrics.map(\.signal))
        for fault in faults {
            names.insert(fault.signal)
            if case .event(let trigger, _) = fault.moment { names.insert(trigger.signal) }
        }
        return names
    }

    /// The signal reps are counted on, or that the hold is judged by.
    var keySignal: String {
        switch movement {
        case .reps(let reps): reps.signal
        case .hold(let hold): hold.conditions.first?.signal ?? signals[0].name
        }
    }
}

/// The camera's view of the person.
public enum CameraView: String, Sendable, Encodable {
    case side, front, oblique, any
}

/// One Euro filter parameters for world (metres) and image (pixels) landmarks.
struct LandmarkSmoothing: Sendable, Equatable {
    var world = OneEuroParameters(minCutoff: 0.1, beta: 40, derivativeCutoff: 1)
    var image = OneEuroParameters(minCutoff: 0.05, beta: 80, derivativeCutoff: 1)
}

struct OneEuroParameters: Sendable, Equatable {
    var minCutoff: Double
    var beta: Double
    var derivativeCutoff: Double
}

/// A named per-frame quantity computed from landmarks.
struct SignalDefinition: Sendable {
    enum Kind: Sendable, Equatable {
        /// Angle at the middle point, degrees.
        case angle(LandmarkReference, LandmarkReference, LandmarkReference)
        /// Angle of the segment from the first point to the second to the vertical
        /// (or the horizontal), degrees; signed: + leaning where the person faces.
        case incline(LandmarkReference, LandmarkReference, fromHorizontal: Bool, signed: Bool)
        /// Angle between two segments, degrees.
        case between(LandmarkReference, LandmarkReference, LandmarkReference, LandmarkReference)
        /// Perpendicular offset of a point from a line, + upward, in scale units.
        case offset(point: LandmarkReference, LandmarkReference, LandmarkReference)
        /// How far the second point is above the first, in scale units.
        case height(LandmarkReference, LandmarkReference)
        /// Distance between two points, in scale units.
        case distance(LandmarkReference, LandmarkReference)
        /// Distance between the first two points over distance between the last two.
        case ratio(LandmarkReference, LandmarkReference, LandmarkReference, LandmarkReference)
        /// Angle between the forearm (pose: elbow→wrist) and the hand (hand: wrist→middle MCP), degrees.
        case wristFlexion
    }

    enum Space: String, Sendable { case world, image }
    enum Scale: String, Sendable { case torso, shoulders }

    var name: String
    var kind: Kind
    var side: SideMode
    var space: Space
    var scale: Scale
    var line: Int

    /// Whether values are degrees (else lengths or ratios).
    var isAngle: Bool {
        switch kind {
        case .angle, .incline, .between, .wristFlexion: true
        default: false
        }
    }

    /// The landmark references the signal reads.
    var references: [LandmarkReference] {
        switch kind {
        case .angle(let a, let b, let c): [a, b, c]
        case .incline(let a, let b, _, _), .height(let a, let b), .distance(let a, let b): [a, b]
        case .between(let a, let b, let c, let d), .ratio(let a, let b, let c, let d): [a, b, c, d]
        case .offset(let point, let a, let b): [point, a, b]
        case .wristFlexion: [.sided(left: 13, right: 14), .sided(left: 15, right: 16)]
        }
    }
}

/// How a signal with sided landmarks chooses its side.
enum SideMode: String, Sendable {
    case left, right
    /// The side whose landmarks are seen better over the whole session.
    case visible
    /// Per frame, the smaller, larger or mean value of the two sides (one side when only one is seen).
    case min, max, mean
}

/// How the exercise moves: repetitions, or a position held.
enum Movement: Sendable {
    case reps(RepRule)
    case hold(HoldRule)
}

/// Counting repetitions on one signal with two thresholds (hysteresis): a rep
/// leaves the rest zone, reaches the active zone and comes back.
struct RepRule: Sendable {
    var signal: String
    var rest: Double
    var active: Double
    var minRange: Double
    var minDurationMs: Int
    var maxDurationMs: Int
    var debounceMs: Int
    var maxGapMs: Int
    /// The phase before the turn, and the one after it.
    var phases: (Phase, Phase)
    /// Conditions at the turn without which a movement is not a rep.
    var require: [PointCondition]

    /// True when the signal falls during a rep (a squat's knee angle), false when it rises.
    var falls: Bool { active < rest }
}

enum Phase: String, Sendable { case eccentric, concentric }

/// Holding a position while every condition is met.
struct HoldRule: Sendable {
    var conditions: [PointCondition]
    var minMs: Int
    var maxGapMs: Int
}

/// A signal compared with a limit.
struct PointCondition: Sendable {
    var signal: String
    var bound: Bound
}

enum Bound: Sendable, Equatable {
    case above(Double)
    case below(Double)

    var limit: Double {
        switch self {
        case .above(let value), .below(let value): value
        }
    }

    func isMet(by value: Double) -> Bool {
        switch self {
        case .above(let limit): value > limit
        case .below(let limit): value < limit
        }
    }

    /// The worse of two values with respect to this bound.
    func worse(_ a: Double, _ b: Double) -> Double {
        switch self {
        case .above: Swift.max(a, b)
        case .below: Swift.min(a, b)
        }
    }
}

/// How a series of values becomes one number.
enum Reduction: String, Sendable {
    case min, max, mean, range
    /// The value at the rep's turn.
    case bottom
}

/// A per-rep number in the report.
struct MetricDefinition: Sendable {
    var name: String
    var signal: String
    var reduce: Reduction
    /// Also report the two sides' difference where both are seen.
    var asymmetry: Bool
}

/// A posture fault: a signal beyond a limit at a moment of the movement.
struct FaultDefinition: Sendable {
    enum Moment: Sendable {
        /// At the rep's turn.
        case bottom
        /// Over the whole rep, or one phase of it.
        case rep
        case phase(Phase)
        /// Whenever, while the position is held.
        case hold
        /// At the first frame of a phase where another signal crosses a limit.
        case event(PointCondition, phase: Phase?)
    }

    enum Severity: String, Sendable, Encodable { case info, warning, critical }

    var code: String
    var signal: String
    var moment: Moment
    var bound: Bound
    var reduce: Reduction?
    var forMs: Int?
    var view: CameraView?
    var severity: Severity
    /// Shown to the coach; `{value}` and `{limit}` are replaced by the measured
    /// value and the limit, `{|value|}` and `{|limit|}` by their magnitudes.
    var message: String
    var line: Int

    static let placeholders = ["{value}", "{limit}", "{|value|}", "{|limit|}"]
}
