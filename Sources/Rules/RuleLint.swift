/// A problem `spotter rules lint` reports, where it is and what to do about it.
public struct RuleDiagnostic: Sendable, Equatable, Codable {
    public enum Severity: String, Sendable, Codable { case error, warning }

    public var file: String
    /// Counting from 1; 0 for the file as a whole.
    public var line: Int
    public var column: Int
    public var severity: Severity
    public var message: String
    public var hint: String?

    public init(file: String, line: Int, column: Int, severity: Severity, message: String, hint: String?) {
        (self.file, self.line, self.column, self.severity, self.message, self.hint) = (file, line, column, severity, message, hint)
    }

    /// `file:line:col: error: message`, as compilers write it.
    public var description: String {
        "\(file):\(line):\(column): \(severity.rawValue): \(message)"
    }
}

/// Checks a rule file beyond reading it: what parses but cannot work as meant.
/// Errors: the file does not read as a rule (its YAML, a key, a landmark, a
/// signal, a placeholder…), a fault that can never fire, a fault whose views
/// cannot show its signal. Warnings: a signal nothing uses, a rep band narrower
/// than MediaPipe's noise on a joint angle.
public enum RuleLint {
    /// A joint angle's frame-to-frame noise in MediaPipe's landmarks, degrees:
    /// a rep's `min_range` under this counts jitter as reps.
    public static let angleNoise = 10.0

    public static func diagnostics(file: String, text: String) -> [RuleDiagnostic] {
        let rule: ExerciseRule
        do {
            rule = try ExerciseRule(yaml: text, file: file)
        } catch let error as RuleError {
            return [RuleDiagnostic(
                file: file, line: error.line, column: error.column, severity: .error, message: error.reason,
                hint: "the file must read as a rule before anything else is checked (Rules/README.md describes every key)")]
        } catch {
            return [RuleDiagnostic(file: file, line: 0, column: 0, severity: .error, message: "\(error)", hint: nil)]
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        func at(_ line: Int, _ severity: RuleDiagnostic.Severity, _ message: String, hint: String) -> RuleDiagnostic {
            let content = line > 0 && line <= lines.count ? lines[line - 1] : ""
            let column = (content.firstIndex { $0 != " " && $0 != "-" }.map { content.distance(from: content.startIndex, to: $0) } ?? 0) + 1
            return RuleDiagnostic(file: file, line: line, column: column, severity: severity, message: message, hint: hint)
        }
        var found: [RuleDiagnostic] = []
        let signals = Dictionary(rule.signals.map { ($0.name, $0) }) { first, _ in first }
        for fault in rule.faults {
            guard let signal = signals[fault.signal] else { continue }
            if let never = neverFires(fault, signal) {
                found.append(at(lineOf(["above:", "below:"], in: lines, from: fault.line), .error, "fault \(fault.code) can never fire: \(never)",
                                hint: "a joint angle lies within 0–180°: choose a limit the signal can pass"))
            }
            if let views = fault.views, let unseen = unseenSpace(signal, views) {
                found.append(at(lineOf(["views:"], in: lines, from: fault.line), .error, "fault \(fault.code) is judged from \(views.map(\.rawValue).joined(separator: ", ")), "
                                + "but its signal \(signal.name) is measured in the \(unseen) view's picture, which those views do not show",
                                hint: "judge it from a view that shows that picture (side or three-quarter for space: side; front, back or three-quarter for space: front), or measure the signal in world space"))
            }
        }
        let used = usedSignals(rule)
        for signal in rule.signals where !used.contains(signal.name) {
            found.append(at(lineOf(["\(signal.name):"], in: lines, from: 1), .warning, "signal \(signal.name) is not used by the reps, a metric, a fault or the position",
                            hint: "use it, or remove it (it is computed on every frame)"))
        }
        if case .reps(let reps) = rule.movement, signals[reps.signal]?.isAngle == true {
            // The narrower of the two movements a rep may make, named by its key.
            let (key, range) = reps.minRange < angleNoise ? ("min_range", reps.minRange) : ("rhythm_min_range", reps.rhythmMinRange)
            if range < angleNoise {
                found.append(at(lineOf(["\(key):"], in: lines, from: 1), .warning,
                                "reps: \(key) \(range)° is narrower than MediaPipe's noise on a joint angle (about \(Int(angleNoise))°)",
                                hint: "jitter would count as reps: ask for a movement of at least \(Int(angleNoise))° each way"))
            }
        }
        return found
    }

    /// Why a fault's bound cannot be passed by its signal, or nil.
    private static func neverFires(_ fault: FaultDefinition, _ signal: SignalDefinition) -> String? {
        guard signal.isAngle else { return nil }
        let lowest: Double = if case .incline(_, _, _, signed: true) = signal.kind { -180 } else { 0 }
        switch fault.bound {
        case .above(let limit) where limit + fault.margin >= 180:
            return "\(signal.name) is an angle, never above \(Int(limit + fault.margin))° (limit \(limit)° plus margin \(fault.margin)°)"
        case .below(let limit) where limit - fault.margin <= lowest:
            return "\(signal.name) is an angle, never below \(Int(limit - fault.margin))° (limit \(limit)° less margin \(fault.margin)°)"
        default:
            return nil
        }
    }

    /// The view a picture-plane signal needs when none of `views` shows it, or nil.
    private static func unseenSpace(_ signal: SignalDefinition, _ views: [CameraView]) -> String? {
        switch signal.space {
        case .side where !views.contains(.side) && !views.contains(.threeQuarter): "side"
        case .front where !views.contains(.front) && !views.contains(.back) && !views.contains(.threeQuarter): "front"
        default: nil
        }
    }

    private static func usedSignals(_ rule: ExerciseRule) -> Set<String> {
        var used = Set(rule.metrics.map(\.signal) + rule.faults.map(\.signal) + rule.position.map(\.signal))
        for fault in rule.faults { if case .event(let condition, _, _) = fault.moment { used.insert(condition.signal) } }
        switch rule.movement {
        case .reps(let reps): used.formUnion([reps.signal] + reps.require.flatMap(\.signals))
        case .hold(let hold): used.formUnion(hold.conditions.flatMap(\.signals) + hold.steady.map(\.signal))
        }
        return used
    }

    /// The first line from `start` (counting from 1) whose text begins with one of `keys`; `start` if none does.
    private static func lineOf(_ keys: [String], in lines: [Substring], from start: Int) -> Int {
        let index = lines.indices.dropFirst(max(0, start - 1)).first { index in
            let text = lines[index].trimmingPrefix(while: { $0 == " " || $0 == "-" })
            return keys.contains { text.hasPrefix($0) }
        }
        return index.map { $0 + 1 } ?? start
    }
}
