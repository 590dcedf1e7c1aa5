import Yams

extension ExerciseRule {
    /// Reads and checks a rule file. Every problem is a `RuleError` naming the
    /// file and line: YAML syntax, unknown keys, unknown landmarks or signals,
    /// out-of-range thresholds, faults that do not fit the movement.
    public init(yaml: String, file: String) throws {
        self.text = yaml
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: yaml) else { throw RuleError(file: file, line: 0, reason: "empty rule file") }
            root = node
        } catch let error as YamlError {
            let (line, column) = Self.position(of: error)
            throw RuleError(file: file, line: line, column: column, reason: "not valid YAML: \(Self.problem(of: error))")
        }
        let top = try YAMLValue(node: root, file: file, path: "").mapping(allowing: [
            "exercise", "version", "title", "visibility", "smoothing", "signals", "position", "travels", "feet", "reps", "hold", "metrics",
            "faults",
        ])
        exercise = try top.required("exercise").string()
        guard Self.isName(exercise) else {
            throw try top.required("exercise").error("an exercise name is lowercase letters, digits and _")
        }
        version = try top.required("version").integer()
        guard version > 0 else { throw try top.required("version").error("the version is a positive whole number") }
        title = try top["title"]?.string() ?? exercise
        visibilityThreshold = try top["visibility"].map { try Self.fraction($0) } ?? 0.5
        smoothing = try top["smoothing"].map(Self.smoothing) ?? LandmarkSmoothing()
        self.file = file

        let signalsValue = try top.required("signals")
        let signals = try signalsValue.namedEntries { name, value in try Self.signal(name, value) }
        self.signals = signals
        guard !signals.isEmpty else { throw signalsValue.error("at least one signal is needed") }
        let names = Set(signals.map(\.name))
        guard names.count == signals.count else { throw signalsValue.error("two signals have the same name") }
        func signalName(_ value: YAMLValue) throws -> String {
            let name = try value.string()
            guard names.contains(name) else {
                throw value.error("no signal \"\(name)\" (defined: \(signals.map(\.name).joined(separator: ", ")))")
            }
            return name
        }

        position = try top["position"]?.list().map { try Self.condition($0, signal: signalName) } ?? []
        travelAllowed = try top["travels"]?.bool() ?? false
        feetPlanted = try top["feet"].map { feet in
            guard try feet.string() == "planted" else { throw feet.error("expected planted (the feet stay where they are), or no feet: at all") }
            return true
        } ?? false
        let (movementKey, movementValue) = try top.oneOf(["reps", "hold"])
        movement = movementKey == "reps"
            ? .reps(try Self.reps(movementValue, signal: signalName))
            : .hold(try Self.hold(movementValue, signal: signalName))
        if case .reps(let reps) = movement, let key = signals.first(where: { $0.name == reps.signal }), key.visibility != nil {
            throw RuleError(
                file: file, line: key.line,
                reason: "signals.\(key.name): the rep signal's visibility is set by reps: visibility:, not by the signal")
        }
        metrics = try top["metrics"]?.namedEntries { name, value in
            let fields = try value.mapping(allowing: ["signal", "reduce", "asymmetry"])
            return MetricDefinition(
                name: name, signal: try signalName(fields.required("signal")),
                reduce: try Self.reduction(fields.required("reduce")),
                asymmetry: try fields["asymmetry"]?.bool() ?? false)
        } ?? []
        let isHold = movementKey == "hold"
        faults = try top["faults"]?.list().map { try Self.fault($0, signal: signalName, isHold: isHold) } ?? []
    }

    // MARK: - Parts

    /// Whether `name` is a valid exercise name or fault code: lowercase letters, digits and `_`, from a letter.
    public static func isName(_ name: String) -> Bool {
        name.range(of: #"^[a-z][a-z0-9_]*$"#, options: .regularExpression) != nil
    }

    private static func views(_ value: YAMLValue) throws -> [CameraView] {
        let views = try value.list().map { item -> CameraView in
            guard let view = CameraView(rawValue: try item.string()) else {
                throw item.error("a view is \(CameraView.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return view
        }
        guard !views.isEmpty else { throw value.error("list at least one view, or leave views out for any view") }
        return views
    }

    private static func fraction(_ value: YAMLValue) throws -> Double {
        let number = try value.number()
        guard (0...1).contains(number) else { throw value.error("must be within [0, 1], not \(number)") }
        return number
    }

    private static func smoothing(_ value: YAMLValue) throws -> LandmarkSmoothing? {
        if case .scalar = value.node {
            guard try value.string() == "off" else { throw value.error("smoothing is `off` or world/image parameters") }
            return nil
        }
        let fields = try value.mapping(allowing: ["world", "image"])
        var smoothing = LandmarkSmoothing()
        func parameters(_ value: YAMLValue, _ defaults: OneEuroParameters) throws -> OneEuroParameters {
            let fields = try value.mapping(allowing: ["min_cutoff", "beta", "derivative_cutoff"])
            func positive(_ key: String, _ fallback: Double) throws -> Double {
                guard let value = fields[key] else { return fallback }
                let number = try value.number()
                guard number >= 0 else { throw value.error("must not be negative") }
                return number
            }
            return OneEuroParameters(
                minCutoff: try positive("min_cutoff", defaults.minCutoff), beta: try positive("beta", defaults.beta),
                derivativeCutoff: try positive("derivative_cutoff", defaults.derivativeCutoff))
        }
        if let world = fields["world"] { smoothing.world = try parameters(world, smoothing.world) }
        if let image = fields["image"] { smoothing.image = try parameters(image, smoothing.image) }
        return smoothing
    }

    private static func signal(_ name: String, _ value: YAMLValue) throws -> SignalDefinition {
        let fields = try value.mapping(allowing: [
            "angle", "incline", "between", "offset", "height", "distance", "ratio", "wrist_flexion",
            "from", "signed", "side", "space", "scale", "visibility",
        ])
        func points(_ value: YAMLValue, count: Int) throws -> [LandmarkReference] {
            let items = try value.list()
            guard items.count == count else { throw value.error("needs \(count) landmarks, not \(items.count)") }
            return try items.map { try LandmarkReference($0.string(), at: $0) }
        }
        func pairs(_ value: YAMLValue) throws -> [LandmarkReference] {
            let items = try value.list()
            guard items.count == 2 else { throw value.error("needs two segments, each [from, to]") }
            return try items.flatMap { try points($0, count: 2) }
        }
        let (kindKey, kindValue) = try fields.oneOf([
            "angle", "incline", "between", "offset", "height", "distance", "ratio", "wrist_flexion",
        ])
        let kind: SignalDefinition.Kind
        switch kindKey {
        case "angle":
            let p = try points(kindValue, count: 3)
            kind = .angle(p[0], p[1], p[2])
        case "incline":
            let p = try points(kindValue, count: 2)
            let reference = try fields["from"]?.string() ?? "vertical"
            guard reference == "vertical" || reference == "horizontal" else {
                throw fields["from"]!.error("an incline is measured from vertical or horizontal")
            }
            let signed = try fields["signed"].map { value -> Bool in
                guard try value.string() == "forward" else { throw value.error("signed: forward is the one signed incline") }
                return true
            } ?? false
            kind = .incline(p[0], p[1], fromHorizontal: reference == "horizontal", signed: signed)
        case "between":
            let p = try pairs(kindValue)
            kind = .between(p[0], p[1], p[2], p[3])
        case "offset":
            let offset = try kindValue.mapping(allowing: ["point", "line"])
            let point = try offset.required("point")
            let line = try points(offset.required("line"), count: 2)
            kind = .offset(point: try LandmarkReference(point.string(), at: point), line[0], line[1])
        case "height":
            let p = try points(kindValue, count: 2)
            kind = .height(p[0], p[1])
        case "distance":
            let p = try points(kindValue, count: 2)
            kind = .distance(p[0], p[1])
        case "ratio":
            let p = try pairs(kindValue)
            kind = .ratio(p[0], p[1], p[2], p[3])
        default:
            guard try kindValue.bool() else { throw kindValue.error("wrist_flexion: true defines the signal") }
            kind = .wristFlexion
        }
        if fields["from"] != nil, kindKey != "incline" { throw fields["from"]!.error("from: belongs to an incline") }
        if fields["signed"] != nil, kindKey != "incline" { throw fields["signed"]!.error("signed: belongs to an incline") }
        func choice<T: RawRepresentable<String>>(_ key: String, _ fallback: T) throws -> T {
            guard let value = fields[key] else { return fallback }
            guard let choice = T(rawValue: try value.string()) else { throw value.error("unknown \(key) \"\(try value.string())\"") }
            return choice
        }
        var definition = SignalDefinition(
            name: name, kind: kind, side: try choice("side", SideMode.visible), space: try choice("space", .world),
            scale: try choice("scale", .torso), line: value.line)
        definition.visibility = try fields["visibility"].map { try fraction($0) }
        if definition.side == .ahead {
            guard case .angle = kind else {
                throw fields["side"]!.error("side: ahead belongs to an angle (the limb whose middle landmark is furthest ahead)")
            }
        }
        if kind == .wristFlexion, definition.space != .world {
            throw value.error("wrist flexion is measured in world coordinates")
        }
        return definition
    }

    private static func reps(
        _ value: YAMLValue, signal: (YAMLValue) throws -> String
    ) throws -> RepRule {
        let fields = try value.mapping(allowing: [
            "signal", "rest", "active", "min_range", "min_share", "rhythm_min_range", "min_duration_ms", "max_duration_ms", "max_gap_ms", "return", "rest_in_set",
            "complete_at_turn", "phases", "require", "visibility",
        ])
        let rest = try fields.required("rest").number(), active = try fields.required("active").number()
        guard rest != active else { throw try fields.required("active").error("rest and active thresholds must differ") }
        let minRange = try fields["min_range"]?.number() ?? abs(rest - active)
        guard minRange > 0 else { throw fields["min_range"]!.error("min_range must be positive") }
        let rhythmMinRange = try fields["rhythm_min_range"]?.number() ?? minRange
        guard rhythmMinRange > 0, rhythmMinRange <= minRange else {
            throw fields["rhythm_min_range"]!.error("rhythm_min_range must be positive and at most min_range")
        }
        var phases = (Phase.eccentric, Phase.concentric)
        if let value = fields["phases"] {
            let names = try value.strings()
            guard names.count == 2, let first = Phase(rawValue: names[0]), let second = Phase(rawValue: names[1]), first != second else {
                throw value.error("phases are [eccentric, concentric] or [concentric, eccentric]")
            }
            phases = (first, second)
        }
        var rule = RepRule(
            signal: try signal(fields.required("signal")), rest: rest, active: active, minRange: minRange,
            minDurationMs: try fields["min_duration_ms"]?.integer() ?? 300,
            maxDurationMs: try fields["max_duration_ms"]?.integer() ?? 12_000,
            maxGapMs: try fields["max_gap_ms"]?.integer() ?? 1200,
            returnFraction: try fields["return"].map { try fraction($0) } ?? 0.65,
            minShare: try fields["min_share"].map { try fraction($0) } ?? 0.4,
            rhythmMinRange: rhythmMinRange,
            phases: phases,
            require: try fields["require"]?.list().map { try repRequirement($0, signal: signal) } ?? [])
        if let visibility = fields["visibility"] { rule.countingVisibility = try fraction(visibility) }
        if let value = fields["complete_at_turn"] {
            switch (value.node.bool, try? value.string()) {
            case (true?, _): rule.completeAtTurn = .counted
            case (false?, _): rule.completeAtTurn = .never
            case (nil, "reported"): rule.completeAtTurn = .reported
            case (nil, "lone"): rule.completeAtTurn = .lone
            default: throw value.error("complete_at_turn must be true, false, reported or lone")
            }
        }
        if let value = fields["rest_in_set"] {
            let restInSet = try value.number()
            guard rule.falls ? restInSet < rest : restInSet > rest else {
                throw value.error("rest_in_set must lie on the turn's side of rest: \(rule.falls ? "below" : "above") \(rest)")
            }
            rule.restInSet = restInSet
        }
        guard rule.minDurationMs >= 0, rule.maxDurationMs > rule.minDurationMs, rule.maxGapMs >= 0 else {
            throw value.error("durations must be ≥ 0, with max_duration_ms above min_duration_ms")
        }
        return rule
    }

    private static func hold(_ value: YAMLValue, signal: (YAMLValue) throws -> String) throws -> HoldRule {
        let fields = try value.mapping(allowing: ["when", "still", "settled", "steady", "ends_unseen", "min_ms", "max_gap_ms"])
        let when = try fields.required("when").list()
        let conditions = try when.map { try holdCondition($0, signal: signal) }
        guard let key = conditions.first else { throw try fields.required("when").error("a hold needs at least one condition") }
        guard key.alternatives.count == 1 else { throw when[0].error("the first condition is the hold's key signal: not any_of") }
        let still = try fields["still"]?.number()
        if let still, still <= 0 { throw fields["still"]!.error("still: is a speed above 0 (body sizes a second)") }
        let settled = try fields["settled"]?.number()
        if let settled, settled <= 0 { throw fields["settled"]!.error("settled: is a speed above 0 (body sizes a second)") }
        let steady = try fields["steady"]?.list().map { try steadySignal($0, signal: signal) }
        let endsUnseen = try fields["ends_unseen"]?.list().map { try signal($0) } ?? []
        return HoldRule(
            conditions: conditions, stillBelow: still, steady: steady ?? [], settledBelow: settled, endsUnseen: endsUnseen,
            minMs: try fields["min_ms"]?.integer() ?? 1000, maxGapMs: try fields["max_gap_ms"]?.integer() ?? 500)
    }

    /// A `steady` entry: `within:` a tolerance either side of the hold's median, or
    /// `not_below:` one below it (and below `ideal:` where given), read in any view or in `views:`.
    private static func steadySignal(_ value: YAMLValue, signal: (YAMLValue) throws -> String) throws -> SteadySignal {
        let fields = try value.mapping(allowing: ["signal", "within", "not_below", "ideal", "views"])
        let (key, tolerance) = try fields.oneOf(["within", "not_below"])
        guard try tolerance.number() > 0 else { throw tolerance.error("\(key): is a tolerance above 0") }
        let ideal = try fields["ideal"]?.number()
        if ideal != nil, key == "within" { throw fields["ideal"]!.error("ideal: goes with not_below:, not within:") }
        return SteadySignal(
            signal: try signal(fields.required("signal")), tolerance: try tolerance.number(), fallsOnly: key == "not_below",
            ideal: ideal, views: try fields["views"].map(views))
    }

    /// A hold's `when` entry: a condition, or `any_of:` a list of two or more.
    private static func holdCondition(_ value: YAMLValue, signal: (YAMLValue) throws -> String) throws -> FrameCondition {
        FrameCondition(alternatives: try alternatives(value, keys: ["signal", "above", "below"]) { try condition($0, signal: signal) })
    }

    /// A `require` entry: a condition, or `any_of:` a list of two or more.
    private static func repRequirement(_ value: YAMLValue, signal: (YAMLValue) throws -> String) throws -> RepRequirement {
        RepRequirement(alternatives: try alternatives(value, keys: Self.repConditionKeys) { try repCondition($0, signal: signal) })
    }

    /// An entry's alternatives: its one condition (a mapping of `keys`), or the
    /// two or more listed in `any_of:`, which then stands alone.
    private static func alternatives<Condition>(
        _ value: YAMLValue, keys: [String], _ condition: (YAMLValue) throws -> Condition
    ) throws -> [Condition] {
        let fields = try value.mapping(allowing: Set(["any_of"] + keys))
        guard let list = fields["any_of"] else { return [try condition(value)] }
        guard fields.entries.count == 1 else { throw value.error("any_of stands alone: its conditions go in its list") }
        let alternatives = try list.list().map(condition)
        guard alternatives.count >= 2 else { throw list.error("any_of lists two or more conditions") }
        return alternatives
    }

    private static let repConditionKeys = ["signal", "above", "below", "reduce"]

    private static func repCondition(_ value: YAMLValue, signal: (YAMLValue) throws -> String) throws -> RepCondition {
        let fields = try value.mapping(allowing: Set(Self.repConditionKeys))
        let reduce = try fields["reduce"].map(reduction)
        if reduce == .bottom { throw fields["reduce"]!.error("reduce: bottom is the default (the value at the turn); leave it out") }
        return RepCondition(
            condition: PointCondition(signal: try signal(fields.required("signal")), bound: try bound(fields)), reduce: reduce)
    }

    private static func condition(_ value: YAMLValue, signal: (YAMLValue) throws -> String) throws -> PointCondition {
        let fields = try value.mapping(allowing: ["signal", "above", "below"])
        return PointCondition(signal: try signal(fields.required("signal")), bound: try bound(fields))
    }

    private static func bound(_ fields: YAMLMapping) throws -> Bound {
        let (key, value) = try fields.oneOf(["above", "below"])
        return key == "above" ? .above(try value.number()) : .below(try value.number())
    }

    private static func reduction(_ value: YAMLValue) throws -> Reduction {
        guard let reduction = Reduction(rawValue: try value.string()) else {
            throw value.error("reduce is min, max, mean, range or bottom")
        }
        return reduction
    }

    private static func fault(
        _ value: YAMLValue, signal: (YAMLValue) throws -> String, isHold: Bool
    ) throws -> FaultDefinition {
        let fields = try value.mapping(allowing: [
            "code", "signal", "at", "phase", "event", "reduce", "above", "below", "for_ms", "margin", "views", "severity",
            "message", "confirm", "pause",
        ])
        let code = try fields.required("code").string()
        guard isName(code) else {
            throw try fields.required("code").error("a fault code is lowercase letters, digits and _")
        }
        let atValue = try fields.required("at")
        let moment: FaultDefinition.Moment
        let phase = try fields["phase"].map { value -> Phase in
            guard let phase = Phase(rawValue: try value.string()) else { throw value.error("a phase is eccentric or concentric") }
            return phase
        }
        switch try atValue.string() {
        case "bottom": moment = .bottom
        case "rep": moment = phase.map { .phase($0) } ?? .rep
        case "hold": moment = .hold
        case "event":
            let event = try fields.required("event")
            let eventFields = try event.mapping(allowing: ["signal", "above", "below", "for_ms"])
            let held = try eventFields["for_ms"]?.integer() ?? 80
            if held < 0 { throw eventFields["for_ms"]!.error("for_ms must not be negative") }
            moment = .event(
                PointCondition(signal: try signal(eventFields.required("signal")), bound: try bound(eventFields)), heldMs: held,
                phase: phase)
        default: throw atValue.error("at is bottom, rep, event or hold")
        }
        if case .hold = moment, !isHold { throw atValue.error("at: hold belongs to a hold, and this exercise counts reps") }
        if isHold, !{ if case .hold = moment { return true } else { return false } }() {
            throw atValue.error("this exercise is a hold: its faults are judged at: hold")
        }
        if fields["event"] != nil, case .event = moment {} else if let event = fields["event"] {
            throw event.error("event: belongs to at: event")
        }
        let confirm = try fields["confirm"].map(signal)
        if let value = fields["confirm"], !{ if case .bottom = moment { return true } else { return false } }() {
            throw value.error("confirm: belongs to at: bottom")
        }
        let readsPause = try fields["pause"].map { value in
            guard case .bottom = moment else { throw value.error("pause: belongs to at: bottom") }
            guard try value.string() == "whole" else { throw value.error("expected whole (a pause at the turn read over all of it)") }
            return true
        } ?? false
        let reduce = try fields["reduce"].map(reduction)
        if let reduce, reduce == .bottom { throw fields["reduce"]!.error("reduce: bottom is at: bottom") }
        let forMs = try fields["for_ms"]?.integer()
        if let forMs, forMs < 0 { throw fields["for_ms"]!.error("for_ms must not be negative") }
        let margin = try fields["margin"]?.number() ?? 0
        if margin < 0 { throw fields["margin"]!.error("margin must not be negative") }
        let message = try fields.required("message").string()
        let placeholders = message.matches(of: /\{[^}]*\}/).map { String($0.output) }
        if let unknown = placeholders.first(where: { !FaultDefinition.placeholders.contains($0) }) {
            throw fields["message"]!.error(
                "unknown placeholder \(unknown) in the message; use \(FaultDefinition.placeholders.joined(separator: ", "))")
        }
        return FaultDefinition(
            code: code, signal: try signal(fields.required("signal")), moment: moment, bound: try bound(fields),
            reduce: reduce, forMs: forMs, margin: margin, confirm: confirm, readsPause: readsPause, views: try fields["views"].map(views),
            severity: try fields["severity"].map { value in
                guard let severity = FaultDefinition.Severity(rawValue: try value.string()) else {
                    throw value.error("severity is info, warning or critical")
                }
                return severity
            } ?? .warning,
            message: message, line: value.line)
    }

    // MARK: - YAML errors

    private static func position(of error: YamlError) -> (line: Int, column: Int) {
        switch error {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _): (mark.line, mark.column)
        default: (0, 0)
        }
    }

    private static func problem(of error: YamlError) -> String {
        switch error {
        case .scanner(_, let problem, _, _), .parser(_, let problem, _, _), .composer(_, let problem, _, _): problem
        default: "\(error)"
        }
    }
}
