import Foundation
import Rules
import Testing

@Suite("Rule files")
struct RuleParsingTests {
    static let minimal = """
        exercise: demo
        version: 2
        signals:
          knee:
            angle: [hip, knee, ankle]
        reps:
          signal: knee
          rest: 150
          active: 125
        faults:
          - code: shallow
            signal: knee
            at: bottom
            above: 100
            message: "{value} over {limit}"
        """

    @Test("every rule in Rules/ loads, one per exercise of contracts §4, with its fault codes")
    func repositoryRules() throws {
        let book = RuleFixtures.book
        let expected = RuleFixtures.contractFaultCodes
        #expect(Set(book.rules.keys) == Set(expected.keys))
        for (exercise, codes) in expected {
            let rule = try book.rule(for: exercise)
            #expect(Set(rule.faultCodes) == codes, "\(exercise)")
            #expect(rule.rulesVersion == "\(exercise)@\(rule.version)")
        }
        #expect(try book.rule(for: "bicep_curl").usesHands && !(try book.rule(for: "squat").usesHands))
    }

    @Test("a minimal rule parses")
    func minimal() throws {
        let rule = try ExerciseRule(yaml: Self.minimal, file: "demo.yaml")
        #expect(rule.exercise == "demo" && rule.rulesVersion == "demo@2" && rule.faultCodes == ["shallow"])
        #expect(rule.title == "demo" && rule.faultViews.isEmpty)
    }

    /// Each broken variant, the line the error must name, and words of its reason.
    static let broken: [(String, String, Int, String)] = [
        ("bad YAML", "exercise: demo\nversion: [1\n", 3, "not valid YAML"),
        ("unknown key", minimal.replacingOccurrences(of: "version: 2", with: "version: 2\nrepz: 3"), 3, "unknown key \"repz\""),
        ("unknown landmark", minimal.replacingOccurrences(of: "[hip, knee, ankle]", with: "[hip, knee, toe]"), 5, "unknown landmark \"toe\""),
        ("unknown signal", minimal.replacingOccurrences(of: "  signal: knee\n  rest", with: "  signal: kne\n  rest"), 7, "no signal \"kne\""),
        ("missing field", minimal.replacingOccurrences(of: "  active: 125\n", with: ""), 7, "\"active\" is required"),
        ("equal thresholds", minimal.replacingOccurrences(of: "active: 125", with: "active: 150"), 9, "must differ"),
        ("rhythm_min_range over min_range", minimal.replacingOccurrences(of: "  active: 125\n", with: "  active: 125\n  rhythm_min_range: 30\n"), 10,
         "at most min_range"),
        ("rest_in_set on the rest's far side", minimal.replacingOccurrences(of: "  active: 125\n", with: "  active: 125\n  rest_in_set: 160\n"), 10,
         "rest_in_set must lie on the turn's side of rest: below 150"),
        ("hold fault on reps", minimal.replacingOccurrences(of: "at: bottom", with: "at: hold"), 13, "belongs to a hold"),
        ("two movements", minimal + "\nhold:\n  when: []\n", 1, "exactly one of reps, hold"),
        ("wrong type", minimal.replacingOccurrences(of: "above: 100", with: "above: lots"), 14, "expected a number"),
        ("typo in message", minimal.replacingOccurrences(of: "{limit}", with: "{limt}"), 15, "unknown placeholder {limt}"),
        ("bad name", minimal.replacingOccurrences(of: "exercise: demo", with: "exercise: Demo Squat"), 1, "lowercase"),
        ("confirm off the turn", minimal.replacingOccurrences(of: "at: bottom", with: "at: rep\n    confirm: knee"), 14, "confirm: belongs to at: bottom"),
        ("confirm unknown signal", minimal.replacingOccurrences(of: "at: bottom", with: "at: bottom\n    confirm: kne"), 14, "no signal \"kne\""),
        ("complete_at_turn neither a bool, reported nor lone", minimal.replacingOccurrences(of: "  active: 125\n", with: "  active: 125\n  complete_at_turn: sometimes\n"), 10,
         "complete_at_turn must be true, false, reported or lone"),
        ("any_of with one condition", minimal.replacingOccurrences(of: "  active: 125\n", with: "  active: 125\n  require:\n    - any_of: [{signal: knee, above: 90}]\n"), 11,
         "any_of lists two or more conditions"),
        ("any_of beside a condition's keys", minimal.replacingOccurrences(
            of: "  active: 125\n", with: "  active: 125\n  require:\n    - {any_of: [{signal: knee, above: 90}, {signal: knee, below: 170}], signal: knee}\n"), 11,
         "any_of stands alone"),
        ("any_of condition unknown signal", minimal.replacingOccurrences(
            of: "  active: 125\n", with: "  active: 125\n  require:\n    - any_of: [{signal: knee, above: 90}, {signal: kne, below: 170}]\n"), 11,
         "no signal \"kne\""),
        ("counting visibility over 1", minimal.replacingOccurrences(of: "  active: 125\n", with: "  active: 125\n  visibility: 1.5\n"), 10, "must be within [0, 1]"),
        ("rep signal's own visibility", minimal.replacingOccurrences(of: "angle: [hip, knee, ankle]", with: "angle: [hip, knee, ankle]\n    visibility: 0"), 5, "set by reps: visibility:"),
        ("signal visibility over 1", minimal.replacingOccurrences(of: "angle: [hip, knee, ankle]", with: "angle: [hip, knee, ankle]\n    visibility: 2"), 6, "must be within [0, 1]"),
        ("settled at no speed", "exercise: demo\nversion: 1\nsignals:\n  knee:\n    angle: [hip, knee, ankle]\nhold:\n  when:\n    - {signal: knee, above: 150}\n  settled: 0\n",
         9, "settled: is a speed above 0"),
        ("ends_unseen unknown signal", "exercise: demo\nversion: 1\nsignals:\n  knee:\n    angle: [hip, knee, ankle]\nhold:\n  when:\n    - {signal: knee, above: 150}\n  ends_unseen: [elbow]\n",
         9, "no signal \"elbow\""),
        ("hold key any_of", Self.hold(when: "    - any_of: [{signal: knee, above: 150}, {signal: knee, below: 30}]\n"), 8,
         "the first condition is the hold's key signal: not any_of"),
        ("hold any_of with one condition", Self.hold(when: "    - {signal: knee, above: 90}\n    - any_of: [{signal: knee, above: 150}]\n"), 9,
         "any_of lists two or more conditions"),
        ("hold any_of beside a condition's keys", Self.hold(
            when: "    - {signal: knee, above: 90}\n    - {any_of: [{signal: knee, above: 150}, {signal: knee, below: 30}], below: 3}\n"), 9,
         "any_of stands alone"),
        ("steady both within and not_below", Self.steadyHold("{signal: knee, within: 5, not_below: 5}"), 10, "needs exactly one of within, not_below"),
        ("steady ideal with within", Self.steadyHold("{signal: knee, within: 5, ideal: 170}"), 10, "ideal: goes with not_below:"),
        ("steady not_below no tolerance", Self.steadyHold("{signal: knee, not_below: 0}"), 10, "not_below: is a tolerance above 0"),
        ("steady unknown view", Self.steadyHold("{signal: knee, not_below: 5, views: [above]}"), 10, "a view is"),
        ("pause off the turn", minimal.replacingOccurrences(of: "at: bottom", with: "at: rep\n    pause: whole"), 14, "pause: belongs to at: bottom"),
        ("pause not whole", minimal.replacingOccurrences(of: "at: bottom", with: "at: bottom\n    pause: half"), 14, "expected whole"),
        ("feet neither planted nor absent", minimal.replacingOccurrences(of: "version: 2", with: "version: 2\nfeet: together"), 3, "feet: expected planted"),
        ("ahead off an angle", minimal.replacingOccurrences(of: "angle: [hip, knee, ankle]", with: "distance: [left_ankle, right_ankle]\n    side: ahead"), 6, "side: ahead belongs to an angle"),
    ]

    /// A hold whose `when` entries (from line 8) are `when`.
    static func hold(when: String) -> String {
        "exercise: demo\nversion: 1\nsignals:\n  knee:\n    angle: [hip, knee, ankle]\nhold:\n  when:\n\(when)"
    }

    /// A hold whose one `steady` entry (line 10) is `entry`.
    static func steadyHold(_ entry: String) -> String {
        "exercise: demo\nversion: 1\nsignals:\n  knee:\n    angle: [hip, knee, ankle]\nhold:\n  when:\n    - {signal: knee, above: 150}\n  steady:\n    - \(entry)\n"
    }

    @Test("broken rules are refused with file:line and the reason", arguments: broken.map(\.0))
    func brokenRules(_ name: String) {
        let (_, yaml, line, reason) = Self.broken.first { $0.0 == name }!
        let error = #expect(throws: RuleError.self) { try ExerciseRule(yaml: yaml, file: "Rules/demo.yaml") }
        #expect(error?.file == "Rules/demo.yaml")
        #expect(error?.line == line, "\(error?.description ?? "")")
        #expect(error?.description.contains(reason) == true, "\(error?.description ?? "")")
        #expect(error?.description.hasPrefix("Rules/demo.yaml:\(line): ") == true)
    }

    @Test("a rule directory must name each file after its exercise, and unknown exercises are listed")
    func ruleBook() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rules-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.minimal.write(to: directory.appendingPathComponent("other.yaml"), atomically: true, encoding: .utf8)
        let misnamed = #expect(throws: RuleError.self) { try RuleBook(directory: directory.path) }
        #expect(misnamed?.reason.contains("must be named demo.yaml") == true)
        try FileManager.default.moveItem(at: directory.appendingPathComponent("other.yaml"), to: directory.appendingPathComponent("demo.yaml"))
        let book = try RuleBook(directory: directory.path)
        let unknown = #expect(throws: UnknownExercise.self) { try book.rule(for: "yoga") }
        #expect(unknown?.known == ["demo"])
        #expect(unknown?.description.contains("known: demo") == true)

        // One exercise's rule alone: a broken neighbour does not stand in its way.
        try "exercise: [".write(to: directory.appendingPathComponent("broken.yaml"), atomically: true, encoding: .utf8)
        #expect(try RuleBook.rule(for: "demo", in: directory.path).exercise == "demo")
        #expect(throws: RuleError.self) { try RuleBook.rule(for: "broken", in: directory.path) }
        let missing = #expect(throws: UnknownExercise.self) { try RuleBook.rule(for: "../demo", in: directory.path) }
        #expect(missing?.known == ["broken", "demo"])
    }
}
