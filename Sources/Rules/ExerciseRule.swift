/// One exercise's rules, read from a file in `Rules/` (see Rules/README.md).
public struct ExerciseRule: Sendable {
    /// The name on the command line and in reports: `squat`.
    public var exercise: String
    public var version: Int
    public var title: String
    /// Landmarks less visible than this are not trusted.
    var visibilityThreshold: Double
    /// One Euro parameters for the landmarks; nil turns smoothing off.
    var smoothing: LandmarkSmoothing?
    var signals: [SignalDefinition]
    /// Conditions of the exercise's position: frames that fail one are not the
    /// exercise (standing about, getting down) and are left out of scoring.
    var position: [PointCondition]
    /// Whether the exercise moves across the floor (walking lunges): then walking is not left out.
    var travelAllowed: Bool
    /// Whether the feet stay where they are through the exercise (`feet:
    /// planted`: a squat, a curl): then a step is set-up, left out.
    var feetPlanted: Bool
    var movement: Movement
    var metrics: [MetricDefinition]
    var faults: [FaultDefinition]
    /// The file the rules came from.
    public var file: String
    /// The text they were read from: what `rulesVersion` names once stored (`rule_versions`).
    public var text: String

    /// `squat@3`, as reports carry it.
    public var rulesVersion: String { "\(exercise)@\(version)" }

    /// The rule's text with its top-level `version:` line saying `number`
    /// (a comment on that line kept, everything else as it is): the text a
    /// published version stores.
    public func text(numbered number: Int) throws -> String {
        var lines = text.components(separatedBy: "\n")
        guard let index = lines.firstIndex(where: { $0.hasPrefix("version:") }) else {
            throw RuleError(file: file, line: 0, reason: "no top-level `version:` line to number")
        }
        let comment = lines[index].firstIndex(of: "#").map { " " + lines[index][$0...] } ?? ""
        lines[index] = "version: \(number)" + comment
        return lines.joined(separator: "\n")
    }

    /// The camera views every fault can be judged from; nil when any view will do.
    public var faultViews: [String: [CameraView]] {
        faults.reduce(into: [:]) { views, fault in
            if let only = fault.views { views[fault.code, default: []] += only.filter { !(views[fault.code] ?? []).contains($0) } }
        }
    }

    /// The fault codes this rule can report.
    public var faultCodes: [String] {
        faults.map(\.code).reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }

    /// Whether the exercise is a position held rather than reps.
    var isHold: Bool {
        if case .hold = movement { return true }
        return false
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
    /// the metrics' and the faults' (with their events' triggers). A `require`
    /// or hold `when` entry's `any_of` alternatives are left out: where one is
    /// hidden, the others decide.
    func signalsJudged(by faults: [FaultDefinition]) -> Set<String> {
        var names: Set<String> = [keySignal]
        switch movement {
        case .reps(let reps): names.formUnion(reps.require.filter { $0.alternatives.count == 1 }.flatMap(\.signals))
        case .hold(let hold): names.formUnion(hold.conditions.filter { $0.alternatives.count == 1 }.flatMap(\.signals))
        }
        names.formUnion(metrics.map(\.signal))
        for fault in faults {
            names.insert(fault.signal)
            if case .event(let trigger, _, _) = fault.moment { names.insert(trigger.signal) }
        }
        return names
    }

    /// The signal reps are counted on, or that the hold is judged by.
    var keySignal: String {
        switch movement {
        case .reps(let reps): reps.signal
        case .hold(let hold): hold.conditions.first?.signals.first ?? signals[0].name
        }
    }
}

/// The camera's view of the person, found from the landmarks.
public enum CameraView: String, Sendable, Codable, CaseIterable {
    case front
    case threeQuarter = "three-quarter"
    case side
    case back
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

    enum Space: String, Sendable {
        case world, image
        /// For movements in the body's sagittal plane (bending forward, squatting,
        /// curling): image coordinates where the camera sees the person from the
        /// side — angles in the picture's plane are true there, where MediaPipe's
        /// world depth biases them — and world coordinates from any other view.
        case side
        /// For movements in the frontal plane (arms overhead, legs apart): image
        /// coordinates where the camera sees the front or the back, world elsewhere.
        case front
    }
    enum Scale: String, Sendable { case torso, shoulders }

    var name: String
    var kind: Kind
    var side: SideMode
    var space: Space
    var scale: Scale
    var line: Int
    /// The visibility this signal trusts landmarks down to, when it is not the
    /// rule's: a condition on how a hidden limb moves reads it as the rep signal does.
    var visibility: Double?

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
    /// The side that does the work over the session: for the rep signal, the
    /// side that clearly moves more (else the better seen), followed even where
    /// MediaPipe calls it hidden; other signals follow the rep signal's side.
    case working
    /// As `working`, for exercises one limb may do alone (a one-arm curl or
    /// press): the side MediaPipe hardly sees is taken too when it alone moves
    /// (the far arm, filmed from the other side).
    case oneLimb = "one_limb"
    /// Per frame, the smaller, larger or mean value of the two sides (one side when only one is seen).
    case min, max, mean
    /// Per frame, the limb further ahead in the direction the person faces (an
    /// angle signal's middle landmark furthest in front of its first: a lunge's
    /// front knee). Which limb leads is told on landmarks MediaPipe calls hidden
    /// too, since the front leg is the far one as often as the near one; its
    /// value is read only where trusted.
    case ahead
}

/// How the exercise moves: repetitions, or a position held.
enum Movement: Sendable {
    case reps(RepRule)
    case hold(HoldRule)
}

/// What a rep whose turn the video ends in is (`complete_at_turn`).
enum TurnAtEnd: Sendable, Equatable {
    /// Nothing: a rep is done back at rest.
    case never
    /// A rep, after a counted rep: the rep is done at its turn (a press held overhead as the video stops).
    case counted
    /// A movement said uncounted: the pose alone does not tell a rep finished
    /// there from a rest reached some other way (a deadlift held at lockout, or
    /// the lifter standing up after setting the bar down).
    case reported
    /// A rep where it is the video's one movement, up from a rest at its start
    /// (a single lift from the floor, held at lockout as the clip stops: nothing
    /// was set down before it); otherwise said uncounted, as `reported`.
    case lone
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
    var maxGapMs: Int
    /// How far back toward the person's own typical rest, from their typical
    /// turn, a rest must come (0–1) to end one rep and begin the next.
    var returnFraction: Double
    /// In a set whose reps come back to `rest`, a rest only this far back also
    /// ends one rep and begins the next (when it is back `returnFraction` of the
    /// way to the person's own rest): quick reps that stop short of the top.
    var restInSet: Double?
    /// The least share of the person's typical range (0–1) a rep moves.
    var minShare: Double
    /// The least a rep moves each way between two counted reps, in the set's
    /// rhythm (at most `minRange`): a shallow rep among full ones.
    var rhythmMinRange: Double
    /// What a turn held to the video's end is: nothing, a rep, or a movement said uncounted.
    var completeAtTurn = TurnAtEnd.never
    /// The phase before the turn, and the one after it.
    var phases: (Phase, Phase)
    /// Conditions without which a movement is not a rep.
    var require: [RepRequirement]
    /// The rep signal trusts landmarks MediaPipe sees down to this visibility
    /// (0–1): limbs it calls hidden, or guesses outside the picture, still move with the body.
    var countingVisibility = SignalContext.defaultCountingVisibility

    /// True when the signal falls during a rep (a squat's knee angle), false when it rises.
    var falls: Bool { active < rest }
}

enum Phase: String, Sendable { case eccentric, concentric }

/// Holding a position while every condition is met.
struct HoldRule: Sendable {
    /// The first is the hold's key signal, and must be measured; it is a single condition.
    var conditions: [FrameCondition]
    /// Held only while the trunk moves slower than this, in the person's own size a second (`BodyMotion`).
    var stillBelow: Double?
    /// The hold starts and ends where each of these signals is steady (`SteadySignal`):
    /// getting into position and out of it is not holding.
    var steady: [SteadySignal] = []
    /// The hold starts and ends where the trunk and legs move slower than this
    /// (body sizes a second, over `BodyMotion.settlingWindowMs`), or than a
    /// multiple of their median speed over the hold where the picture shakes
    /// more (`HoldDetector.startShake`, `endShake`): a held position has stopped moving into place.
    var settledBelow: Double?
    /// Signals that end the hold where they were last measured, when they were
    /// measured through it and then not for the rest of it (`HoldDetector.endingWhereSeen`):
    /// a plank let down to lie flat hides the elbows that held it up.
    var endsUnseen: [String] = []
    var minMs: Int
    var maxGapMs: Int
}

/// A signal that stays near where it is held while a position is held: within
/// `tolerance` of its median over the hold, or (`fallsOnly`) not more than
/// `tolerance` below the lower of that median and `ideal`.
struct SteadySignal: Sendable {
    var signal: String
    var tolerance: Double
    /// Only a fall leaves steadiness (`not_below:`): a plank's hips may rise, not rest on the floor.
    var fallsOnly = false
    /// Where the signal belongs (`ideal:`): a hold mostly above it still starts near it.
    var ideal: Double?
    /// The views it is read in (nil: any); elsewhere it is not measured.
    var views: [CameraView]?

    /// Whether `value` is steady in a hold where the signal's median is `median`.
    func isSteady(_ value: Double, median: Double) -> Bool {
        fallsOnly ? value >= min(median, ideal ?? median) - tolerance : abs(value - median) <= tolerance
    }
}

/// A signal compared with a limit.
struct PointCondition: Sendable {
    var signal: String
    var bound: Bound
}

/// A condition a rep must meet: a signal at the turn, or reduced over the whole
/// rep (`reduce: range` — how much the upper arm swings during a curl).
struct RepCondition: Sendable {
    var condition: PointCondition
    /// nil: the value at the turn.
    var reduce: Reduction?
}

/// A condition on a frame's signals, or (`any_of`, in a hold's `when`) several
/// of which a frame meets at least one — a plank's body near level to the
/// camera, or risen little over the floor its hands and feet are on where a
/// camera tilted down looks along the body from behind its feet.
struct FrameCondition: Sendable {
    var alternatives: [PointCondition]

    /// The signals the entry reads.
    var signals: [String] { alternatives.map(\.signal) }

    /// Whether the frame meets the entry: one of its measured conditions is met;
    /// nil where none of them is measured.
    func isMet(at frame: Int, in series: [String: SignalSeries]) -> Bool? {
        let measured = alternatives.compactMap { condition in
            series[condition.signal]?.values[frame].map { condition.bound.isMet(by: $0) }
        }
        return measured.isEmpty ? nil : measured.contains(true)
    }
}

/// One `require` entry: a condition, or (`any_of`) several of which a rep meets
/// at least one — a single-leg deadlift's raised leg keeps its hip open where
/// both hips bend in a deadlift on two feet.
struct RepRequirement: Sendable {
    var alternatives: [RepCondition]

    /// The signals the requirement reads.
    var signals: [String] { alternatives.map(\.condition.signal) }
}

enum Bound: Sendable, Equatable {
    case above(Double)
    case below(Double)

    var limit: Double {
        switch self {
        case .above(let value), .below(let value): value
        }
    }

    /// Whether `value` breaks the limit by more than `margin`.
    func isMet(by value: Double, margin: Double = 0) -> Bool {
        switch self {
        case .above(let limit): value > limit + margin
        case .below(let limit): value < limit - margin
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
        /// At the first frame of a phase where another signal crosses a limit and
        /// stays beyond it for `heldMs`.
        case event(PointCondition, heldMs: Int, phase: Phase?)
    }

    enum Severity: String, Sendable, Encodable { case info, warning, critical }

    var code: String
    var signal: String
    var moment: Moment
    var bound: Bound
    var reduce: Reduction?
    var forMs: Int?
    /// How far past the limit a value must be to count (measurement noise):
    /// values within the margin of the limit are not faults.
    var margin: Double
    /// A second signal that must break the limit too, read at the same turn
    /// (`at: bottom` only): the fault stands only where both readings agree,
    /// or where this one cannot be read.
    var confirm: String? = nil
    /// Whether a rep that pauses at its turn is read over the whole pause, its
    /// median (`pause: whole`, `at: bottom` only), rather than at its most
    /// extreme moment: a long, noisy hold's extreme reads it further than it was held.
    var readsPause = false
    /// The views the fault can be judged from; nil for any.
    var views: [CameraView]?
    var severity: Severity
    /// Shown to the coach; `{value}` and `{limit}` are replaced by the measured
    /// value and the limit, `{|value|}` and `{|limit|}` by their magnitudes.
    var message: String
    var line: Int

    static let placeholders = ["{value}", "{limit}", "{|value|}", "{|limit|}"]
}
