/// One fault's definition on the true kinematics: the quantity, the coaching
/// limit, and how long it must last. Planning draws each rep either clearly clean
/// (`cleanGap` inside the limit) or clearly faulty (`faultGap` beyond it, and
/// for `sustainMs` plus `FaultRule.sustainMargin`), never in between.
struct FaultRule: Sendable {
    enum Quantity: Sendable { case knee, elbow, hip, lean, upperArm, wrist, hipLine, kneeSpread, armRaise, feetSpread }
    enum Timing: Sendable {
        /// Judged at the rep's turn.
        case atTurn
        /// Faulty when beyond the limit for this long within the rep.
        case sustained(ms: Double)
        /// Deadlift: the hip is judged when the knee (same side) passes this angle on the way up.
        case whenKneePasses(Double)
    }

    var code: String
    var quantity: Quantity
    /// Faulty above the limit (true) or below it.
    var above: Bool
    var limit: Double
    var timing: Timing

    /// Extra time a sustained fault is held beyond its faulty edge, so that it clearly lasts.
    static let sustainMargin = 150.0

    var isAngle: Bool { quantity != .hipLine && quantity != .kneeSpread && quantity != .feetSpread }
    var cleanGap: Double { isAngle ? 6 : 0.05 }
    var faultGap: Double { isAngle ? 10 : 0.08 }
    /// The value a clean rep keeps to (or stays inside of).
    var cleanEdge: Double { above ? limit - cleanGap : limit + cleanGap }
    /// The value a faulty rep reaches (or goes beyond).
    var faultEdge: Double { above ? limit + faultGap : limit - faultGap }

    /// A clean value, uniformly between the clean edge (kept a hair inside it, so that rounding
    /// cannot land on it) and `far`, further inside.
    func clean(toward far: Double, _ random: inout SimRandom) -> Double {
        random.uniform(cleanEdge + (above ? -1 : 1) * hair, far)
    }

    /// A faulty value, uniformly between the faulty edge (a hair beyond it) and `far`, further beyond.
    func faulty(toward far: Double, _ random: inout SimRandom) -> Double {
        random.uniform(faultEdge + (above ? 1 : -1) * hair, far)
    }

    private var hair: Double { isAngle ? 0.5 : 0.005 }

    func isFaulty(_ value: Double) -> Bool { above ? value >= faultEdge : value <= faultEdge }
    func isClean(_ value: Double) -> Bool { above ? value <= cleanEdge : value >= cleanEdge }

    /// The true measures this rule reads for a rep working these sides.
    func measures(_ sides: [BodySide]) -> [TrueMeasure] {
        switch quantity {
        case .knee: sides.map { .knee($0) }
        case .elbow: sides.map { .elbow($0) }
        case .hip: sides.map { .hip($0) }
        case .upperArm: sides.map { .upperArm($0) }
        case .wrist: sides.map { .wrist($0) }
        case .armRaise: sides.map { .armRaise($0) }
        case .lean: [.lean]
        case .hipLine: [.hipLine]
        case .kneeSpread: [.kneeSpread]
        case .feetSpread: [.feetSpread]
        }
    }
}

/// The fault definitions of every exercise (the coaching cues' limits).
enum FaultBook {
    /// Codes whose fault means the rep missed its depth or range: such reps are partial.
    static let rangeCodes: Set<String> = ["shallow_depth", "partial_rom", "partial_lockout"]

    static func rules(_ exercise: String) -> [FaultRule] {
        switch exercise {
        case "squat": [
            FaultRule(code: "shallow_depth", quantity: .knee, above: true, limit: 100, timing: .atTurn),
            FaultRule(code: "forward_lean", quantity: .lean, above: true, limit: 45, timing: .sustained(ms: 150)),
            FaultRule(code: "knee_valgus", quantity: .kneeSpread, above: false, limit: 0.75, timing: .atTurn),
        ]
        case "pushup": [
            FaultRule(code: "shallow_depth", quantity: .elbow, above: true, limit: 100, timing: .atTurn),
            FaultRule(code: "hip_sag", quantity: .hipLine, above: false, limit: -0.12, timing: .sustained(ms: 300)),
            FaultRule(code: "hip_pike", quantity: .hipLine, above: true, limit: 0.15, timing: .sustained(ms: 300)),
        ]
        case "bicep_curl": [
            FaultRule(code: "partial_rom", quantity: .elbow, above: true, limit: 55, timing: .atTurn),
            FaultRule(code: "elbow_drift", quantity: .upperArm, above: true, limit: 25, timing: .atTurn),
            FaultRule(code: "torso_swing", quantity: .lean, above: false, limit: -11, timing: .sustained(ms: 250)),
            FaultRule(code: "bent_wrist", quantity: .wrist, above: true, limit: 30, timing: .sustained(ms: 200)),
        ]
        case "lunge": [
            FaultRule(code: "shallow_depth", quantity: .knee, above: true, limit: 105, timing: .atTurn),
            FaultRule(code: "forward_lean", quantity: .lean, above: true, limit: 30, timing: .sustained(ms: 150)),
        ]
        case "overhead_press": [
            FaultRule(code: "partial_lockout", quantity: .elbow, above: false, limit: 160, timing: .atTurn),
            FaultRule(code: "back_arch", quantity: .lean, above: false, limit: -12, timing: .sustained(ms: 200)),
            FaultRule(code: "bent_wrist", quantity: .wrist, above: true, limit: 35, timing: .sustained(ms: 200)),
        ]
        case "jumping_jack": [
            FaultRule(code: "partial_rom", quantity: .armRaise, above: false, limit: 150, timing: .atTurn),
            FaultRule(code: "partial_rom", quantity: .feetSpread, above: false, limit: 1.8, timing: .atTurn),
        ]
        case "deadlift": [
            FaultRule(code: "partial_lockout", quantity: .hip, above: false, limit: 160, timing: .atTurn),
            FaultRule(code: "knees_locked_early", quantity: .hip, above: false, limit: 125, timing: .whenKneePasses(160)),
        ]
        case "plank": [
            FaultRule(code: "hip_sag", quantity: .hipLine, above: false, limit: -0.12, timing: .sustained(ms: 800)),
            FaultRule(code: "hip_pike", quantity: .hipLine, above: true, limit: 0.15, timing: .sustained(ms: 800)),
        ]
        default: []
        }
    }

    static func rule(_ exercise: String, _ code: String) -> FaultRule {
        rules(exercise).first { $0.code == code }!
    }

    /// Every code an exercise can report.
    static func codes(_ exercise: String) -> Set<String> { Set(rules(exercise).map(\.code)) }
}
