import Foundation
import LandmarkTracks
import Rules
import SyntheticMotion
import WorkoutSimulator

/// What a generated set holds, whichever generator made it.
struct SetTruth {
    struct Rep {
        var startMilliseconds: Int
        var endMilliseconds: Int
        var faults: Set<String>
    }

    struct Span {
        var code: String
        var startMilliseconds: Int
        var endMilliseconds: Int
    }

    /// What was drawn, for messages.
    var description: String
    var idle: Bool
    var reps: [Rep]
    /// For holds: the time held, and the fault episodes.
    var holdMilliseconds: Int?
    var faultSpans: [Span]
    /// For holds, where the generator says: the stretches held, milliseconds.
    var heldSpans: [Range<Int>] = []
    /// Reps done out of the picture: the track has no pose on at least half of
    /// their frames (a walking lunge past the camera, a person who walked out of
    /// frame). Nobody can count those from the video, so a count that leaves
    /// them out is accepted too, as `truth.json` of the real clips accepts two
    /// counts where a clip cuts a rep.
    var repsOutOfPicture = 0

    /// The rep counts accepted: all the reps, down to those done in the picture.
    var acceptedCounts: ClosedRange<Int> { (reps.count - repsOutOfPicture)...reps.count }
}

extension SetTruth {
    init(_ set: SyntheticSet) {
        self.init(
            description: "\(set.conditions)", idle: set.conditions.idle,
            reps: set.reps.map { Rep(startMilliseconds: $0.startMilliseconds, endMilliseconds: $0.endMilliseconds, faults: $0.faults) },
            holdMilliseconds: set.holdMilliseconds,
            faultSpans: set.faultSpans.map { Span(code: $0.code, startMilliseconds: $0.startMilliseconds, endMilliseconds: $0.endMilliseconds) })
        repsOutOfPicture = Self.repsOutOfPicture(reps, set.track)
    }

    init(_ session: SimulatedSession) {
        self.init(
            description: session.summary, idle: session.idle,
            reps: session.reps.map { Rep(startMilliseconds: $0.startMs, endMilliseconds: $0.endMs, faults: $0.faults) },
            holdMilliseconds: session.idle ? nil : session.hold?.heldMs,
            faultSpans: session.hold?.faults.map { Span(code: $0.code, startMilliseconds: $0.startMs, endMilliseconds: $0.endMs) } ?? [],
            heldSpans: session.hold?.spans ?? [])
        repsOutOfPicture = Self.repsOutOfPicture(reps, session.track)
    }

    private static func repsOutOfPicture(_ reps: [Rep], _ track: LandmarkTrack) -> Int {
        reps.filter { rep in
            let frames = track.frames.filter { (rep.startMilliseconds..<rep.endMilliseconds).contains($0.timestampMilliseconds) }
            return !frames.isEmpty && 2 * frames.filter(\.poses.isEmpty).count >= frames.count
        }.count
    }
}

/// Scores generated sets and compares with their truth: rep counts, and each
/// fault code's precision and recall over matched reps (or held spans).
struct Evaluation {
    struct Tally {
        var truePositives = 0
        var falsePositives = 0
        var falseNegatives = 0

        var precision: Double { truePositives + falsePositives == 0 ? 1 : Double(truePositives) / Double(truePositives + falsePositives) }
        var recall: Double { truePositives + falseNegatives == 0 ? 1 : Double(truePositives) / Double(truePositives + falseNegatives) }
    }

    var sets = 0
    var exactCounts = 0
    var idleSets = 0
    var falseRepsOnIdle = 0
    var faults: [String: Tally] = [:]
    var holdErrors: [Double] = []
    /// Holds whose time is within 10 % of the truth.
    var holdsWithinTenPercent: Int { holdErrors.filter { $0 <= 0.1 }.count }
    var misses: [String] = []
    /// The sum of |counted − true| over the sets, for the mean absolute error.
    var countErrors = 0

    var countAccuracy: Double { sets == 0 ? 1 : Double(exactCounts) / Double(sets) }
    var meanAbsoluteError: Double { sets == 0 ? 0 : Double(countErrors) / Double(sets) }

    mutating func add(_ set: SyntheticSet, _ report: SessionReport) {
        add(SetTruth(set), report)
    }

    mutating func add(_ set: SetTruth, _ analysis: Analysis) {
        add(set, analysis.report)
        guard let miss = misses.last, miss.hasPrefix("\(set.description): held "), !set.heldSpans.isEmpty else { return }
        let spans = { (spans: [(Int, Int)]) in spans.map { "\($0.0)-\($0.1)" }.joined(separator: ", ") }
        misses[misses.count - 1] = miss + " (held \(spans(analysis.heldSpans.map { ($0.lowerBound, $0.upperBound) })); truth \(spans(set.heldSpans.map { ($0.lowerBound, $0.upperBound) })))"
    }

    mutating func add(_ set: SetTruth, _ report: SessionReport) {
        if set.idle {
            idleSets += 1
            falseRepsOnIdle += report.repCount
            if report.repCount > 0 { misses.append("\(set.description): \(report.repCount) false rep(s)") }
            if let held = report.holdMilliseconds, held > 0 { misses.append("\(set.description): held \(held) ms while idle") }
            return
        }
        if let truth = set.holdMilliseconds {
            let error = abs(Double((report.holdMilliseconds ?? 0) - truth)) / Double(max(truth, 1))
            holdErrors.append(error)
            if error > 0.1 { misses.append("\(set.description): held \(report.holdMilliseconds ?? 0) ms, truth \(truth) ms") }
            addHoldFaults(set, report)
            return
        }
        sets += 1
        let accepted = set.acceptedCounts
        countErrors += report.repCount < accepted.lowerBound ? accepted.lowerBound - report.repCount : max(0, report.repCount - accepted.upperBound)
        if accepted.contains(report.repCount) { exactCounts += 1 } else {
            let truth = accepted.count == 1 ? "\(set.reps.count)" : "\(accepted.lowerBound)–\(accepted.upperBound)"
            misses.append("\(set.description): counted \(report.repCount) of \(truth) [\(report.reps.map { "\($0.startMilliseconds)-\($0.endMilliseconds)" }.joined(separator: ", "))] truth [\(set.reps.map { "\($0.startMilliseconds)-\($0.endMilliseconds)" }.joined(separator: ", "))] \(report.warnings.filter { $0.hasPrefix("uncounted") || $0.hasPrefix("no_reps") }) \(report.excluded.map { "\($0.reason) \($0.startMilliseconds)-\($0.endMilliseconds)" })")
        }
        // Match reps by overlap, best first.
        var pairs: [(overlap: Int, found: Int, truth: Int)] = []
        for (i, found) in report.reps.enumerated() {
            for (j, truth) in set.reps.enumerated() {
                let overlap = min(found.endMilliseconds, truth.endMilliseconds) - max(found.startMilliseconds, truth.startMilliseconds)
                if overlap > 0 { pairs.append((overlap, i, j)) }
            }
        }
        var matchedFound = Set<Int>(), matchedTruth = Set<Int>()
        var matches: [(Int, Int)] = []
        for pair in pairs.sorted(by: { $0.overlap > $1.overlap }) where !matchedFound.contains(pair.found) && !matchedTruth.contains(pair.truth) {
            matchedFound.insert(pair.found)
            matchedTruth.insert(pair.truth)
            matches.append((pair.found, pair.truth))
        }
        for (found, truth) in matches {
            let judged = Self.judgedCodes(report, rep: found + 1)
            let detected = Set(report.reps[found].faults), expected = set.reps[truth].faults.intersection(judged)
            for code in detected.union(expected) {
                if detected.contains(code) && expected.contains(code) { faults[code, default: Tally()].truePositives += 1 }
                else if detected.contains(code) {
                    faults[code, default: Tally()].falsePositives += 1
                    misses.append("\(set.description): rep \(found + 1) false \(code): \(report.faults.filter { $0.rep == found + 1 && $0.code == code }.map(\.message))")
                } else {
                    faults[code, default: Tally()].falseNegatives += 1
                    misses.append("\(set.description): rep \(found + 1) missed \(code)")
                }
            }
        }
        for (index, rep) in report.reps.enumerated() where !matchedFound.contains(index) {
            for code in rep.faults { faults[code, default: Tally()].falsePositives += 1 }
        }
        // A rep that was not found: its faults were missed, where the view allowed judging them.
        let judgedAnywhere = Self.judgedCodes(report, rep: nil)
        for (index, rep) in set.reps.enumerated() where !matchedTruth.contains(index) {
            for code in rep.faults.intersection(judgedAnywhere) { faults[code, default: Tally()].falseNegatives += 1 }
        }
    }

    /// The fault codes the report judged on a rep (nil: on every rep): every code
    /// but those it says it could not judge there from the camera's view (those
    /// are not expected).
    static func judgedCodes(_ report: SessionReport, rep: Int?) -> Set<String> {
        let all: Set<String> = [
            "shallow_depth", "forward_lean", "knee_valgus", "hip_sag", "hip_pike", "partial_rom", "elbow_drift", "torso_swing",
            "bent_wrist", "partial_lockout", "back_arch", "knees_locked_early",
        ]
        return all.subtracting(report.notJudged.filter { rep == nil || $0.reps.contains(rep!) }.map(\.code))
    }

    private mutating func addHoldFaults(_ set: SetTruth, _ report: SessionReport) {
        for code in ["hip_sag", "hip_pike"] where Self.judgedCodes(report, rep: nil).contains(code) {
            let found = report.faults.filter { $0.code == code }, truth = set.faultSpans.filter { $0.code == code }
            func overlaps(_ a: (Int, Int), _ b: (Int, Int)) -> Bool { min(a.1, b.1) > max(a.0, b.0) }
            let matchedFound = found.filter { f in truth.contains { overlaps((f.startMilliseconds, f.endMilliseconds), ($0.startMilliseconds, $0.endMilliseconds)) } }
            let matchedTruth = truth.filter { t in found.contains { overlaps(($0.startMilliseconds, $0.endMilliseconds), (t.startMilliseconds, t.endMilliseconds)) } }
            faults[code, default: Tally()].truePositives += matchedTruth.count
            faults[code, default: Tally()].falseNegatives += truth.count - matchedTruth.count
            faults[code, default: Tally()].falsePositives += found.count - matchedFound.count
            if truth.count != matchedTruth.count || found.count != matchedFound.count {
                misses.append("\(set.description): \(code) truth \(truth.map { "\($0.startMilliseconds)-\($0.endMilliseconds)" }) found \(found.map { "\($0.startMilliseconds)-\($0.endMilliseconds)" })")
            }
        }
    }
}

/// The evaluation corpus: for each exercise, sets across frame rates, tempos,
/// camera sides (and the front, for squats), hidden far sides and noise, plus idle sets.
enum Corpus {
    static func conditions(for exercise: String, setsPerExercise: Int = 24, idleSets: Int = 4) -> [SetConditions] {
        var list: [SetConditions] = []
        for index in 0..<setsPerExercise {
            var conditions = SetConditions()
            conditions.fps = index % 2 == 0 ? 30 : 60
            conditions.tempo = [.normal, .slow, .fast][(index / 2) % 3]
            conditions.hiddenFarSide = (index / 6) % 2 == 1
            conditions.noise = index % 3 == 0 ? 0.02 : 0.01
            conditions.reps = 4 + index % 5
            switch exercise {
            case "jumping_jack": conditions.camera = .front
            case "squat": conditions.camera = index % 4 == 3 ? .front : (index / 12) % 2 == 0 ? .left : .right
            default: conditions.camera = (index / 12) % 2 == 0 ? .left : .right
            }
            list.append(conditions)
        }
        for index in 0..<idleSets {
            var conditions = SetConditions()
            conditions.idle = true
            conditions.fps = index % 2 == 0 ? 30 : 60
            conditions.hiddenFarSide = index == 3
            conditions.camera = exercise == "jumping_jack" ? .front : index % 2 == 0 ? .left : .right
            list.append(conditions)
        }
        return list
    }
}
