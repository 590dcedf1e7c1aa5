import Foundation
import LandmarkTracks
import Rules
import SyntheticMotion
import Testing
import WorkoutSimulator

/// The seeds of both generators: tuning seeds, which the rules' thresholds were
/// chosen on, and held-out seeds, never looked at while choosing them. Only
/// held-out results are reported as Spotter's accuracy.
enum Seeds {
    /// WorkoutSimulator (the independent generator): sets and idle sets per exercise.
    static let simulatorSets = 50
    static let simulatorIdleSets = 10
    static let simulatorTuning: ClosedRange<UInt64> = 1...UInt64(simulatorSets + simulatorIdleSets)
    static let simulatorHeldOut: ClosedRange<UInt64> = 1_000_001...UInt64(1_000_000 + simulatorSets + simulatorIdleSets)
    /// More idle sets to tune on (`SPOTTER_TUNING_IDLE=N` runs the first N):
    /// ten a generator's idle routines are too few to show their false reps.
    static let simulatorTuningIdle: ClosedRange<UInt64> = 2_000_001...2_001_000
    /// More sets with reps (or holds) to tune on (`SPOTTER_TUNING_MORE=N` runs the first N).
    static let simulatorTuningMore: ClosedRange<UInt64> = 3_000_001...3_001_000
    /// Sets to check a change on before the held-out seeds (`SPOTTER_TUNING_VALIDATION=N` runs
    /// the first N), printed as totals only, never a set's own result: the 300 more tuning sets
    /// looked at set by set for many changes read up to 6 points better than the 700 after them.
    static let simulatorValidation: ClosedRange<UInt64> = 4_000_001...4_001_000

    /// SyntheticMotion (the project's first generator): AccuracyTests runs its
    /// tuning seeds; these are held out.
    static func syntheticHeldOut(_ exercise: String, index: Int) -> UInt64 {
        UInt64(index) &* 104_729 &+ 0x5EED_0000_0000 &+ exercise.utf8.reduce(0) { $0 &* 131 &+ UInt64($1) }
    }
}

/// Evaluations of the two generators over a range of seeds.
enum GeneratorRuns {
    /// WorkoutSimulator sessions of `seeds`: the first `Seeds.simulatorSets` with
    /// reps (or holds), the rest idle.
    static func simulator(
        _ exercise: String, seeds: ClosedRange<UInt64>, allIdle: Bool = false, setsFirst: Int = Seeds.simulatorSets
    ) throws -> Evaluation {
        let scorer = Scorer(rule: try RuleFixtures.book.rule(for: exercise))
        var evaluation = Evaluation()
        for (index, seed) in seeds.enumerated() {
            let session = WorkoutSimulator.session(exercise, seed: seed, idle: allIdle || index >= setsFirst)
            evaluation.add(SetTruth(session), scorer.score(session.track))
        }
        return evaluation
    }

    /// SyntheticMotion's corpus (every condition), on held-out seeds.
    static func syntheticHeldOut(_ exercise: String) throws -> Evaluation {
        let scorer = Scorer(rule: try RuleFixtures.book.rule(for: exercise))
        var evaluation = Evaluation()
        let conditions = Corpus.conditions(
            for: exercise, setsPerExercise: AccuracyTests.setsPerExercise, idleSets: AccuracyTests.idleSetsPerExercise)
        for (index, conditions) in conditions.enumerated() {
            let set = SyntheticSessions.make(exercise, conditions, seed: Seeds.syntheticHeldOut(exercise, index: index))
            evaluation.add(set, scorer.score(set.track).report)
        }
        return evaluation
    }
}

/// Accuracy on held-out seeds of both generators, printed beside issue 11's
/// targets (rep counts exact on ≥ 98 % of sets with a mean absolute error ≤
/// 0.03 reps, no rep on idle sets, every fault code's precision and recall ≥
/// 0.95 over the reps whose view let it be judged, hold time within 10 %), and
/// checked against floors: the accuracy last measured on these seeds (the
/// README's table), less a small margin, so that a change that makes them worse fails. The
/// independent generator's floors are under the targets — the README's accuracy
/// section says by how much. Failures say only the totals: the held-out sets
/// are not looked at one by one.
@Suite("Accuracy on held-out seeds of both generators")
struct HeldOutAccuracyTests {
    /// The least a generator's held-out sets may score.
    struct Floor {
        var exactCounts: Double
        var meanAbsoluteError: Double
        var falseRepsOnIdle: Int
        var precision: Double
        var recall: Double
        /// The share of holds whose time is within 10 % of the truth.
        var holdsWithinTenPercent: Double
        /// The mean of the holds' relative errors in time.
        var meanHoldError: Double
        /// Lower recall floors for some faults ("exercise code"), where the sets were drawn anew.
        var recallExceptions: [String: Double] = [:]

        func recall(_ exercise: String, _ code: String) -> Double { recallExceptions["\(exercise) \(code)"] ?? recall }
    }

    static let target = Floor(
        exactCounts: 0.98, meanAbsoluteError: 0.03, falseRepsOnIdle: 0, precision: 0.95, recall: 0.95, holdsWithinTenPercent: 1, meanHoldError: 0.05)
    static let synthetic = Floor(
        exactCounts: 0.98, meanAbsoluteError: 0.03, falseRepsOnIdle: 0, precision: 0.95, recall: 0.9, holdsWithinTenPercent: 1, meanHoldError: 0.05)
    /// The curl's sets were drawn anew when arms taking turns were added (stop 37): from the
    /// side, the far arm's upper arm is hidden behind the body on its reps, and not judged there.
    static let simulator = Floor(
        exactCounts: 0.92, meanAbsoluteError: 0.15, falseRepsOnIdle: 1, precision: 0.8, recall: 0.85, holdsWithinTenPercent: 0.9,
        meanHoldError: 0.035, recallExceptions: ["bicep_curl elbow_drift": 0.7])

    static func check(_ evaluation: Evaluation, _ exercise: String, generator: String, floor: Floor) {
        let errors = evaluation.holdErrors
        let holdsWithin = Double(evaluation.holdsWithinTenPercent) / Double(max(1, errors.count))
        let meanError = errors.reduce(0, +) / Double(max(1, errors.count))
        let meets = { (floor: Floor) -> Bool in
            evaluation.falseRepsOnIdle <= floor.falseRepsOnIdle
                && (exercise == "plank" ? holdsWithin >= floor.holdsWithinTenPercent && meanError <= floor.meanHoldError
                    : evaluation.countAccuracy >= floor.exactCounts && evaluation.meanAbsoluteError <= floor.meanAbsoluteError)
                && evaluation.faults.values.allSatisfy { $0.precision >= floor.precision && $0.recall >= floor.recall }
        }
        print(evaluation.table("\(exercise) (\(generator), held out)"))
        print("accuracy \(exercise) (\(generator), held out): issue 11's targets \(meets(target) ? "met" : "NOT met")")
        #expect(evaluation.falseRepsOnIdle <= floor.falseRepsOnIdle, "\(generator) \(exercise): \(evaluation.falseRepsOnIdle) reps on idle sets")
        if exercise == "plank" {
            #expect(
                !errors.isEmpty && holdsWithin >= floor.holdsWithinTenPercent && meanError <= floor.meanHoldError,
                "\(generator) plank: \(holdsWithin * 100) % of holds within 10 %, mean error \(meanError), worst \(errors.max() ?? 0)")
        } else {
            #expect(
                evaluation.countAccuracy >= floor.exactCounts && evaluation.meanAbsoluteError <= floor.meanAbsoluteError,
                "\(generator) \(exercise): exact \(evaluation.exactCounts)/\(evaluation.sets), MAE \(evaluation.meanAbsoluteError)")
        }
        for (code, tally) in evaluation.faults {
            #expect(tally.precision >= floor.precision && tally.recall >= floor.recall(exercise, code), "\(generator) \(exercise) \(code): \(tally)")
        }
    }

    @Test("the independent generator (WorkoutSimulator)", arguments: WorkoutSimulator.exercises)
    func simulator(_ exercise: String) throws {
        Self.check(
            try GeneratorRuns.simulator(exercise, seeds: Seeds.simulatorHeldOut), exercise, generator: "WorkoutSimulator",
            floor: Self.simulator)
    }

    @Test("the first generator (SyntheticMotion)", arguments: SyntheticSessions.exercises)
    func synthetic(_ exercise: String) throws {
        Self.check(try GeneratorRuns.syntheticHeldOut(exercise), exercise, generator: "SyntheticMotion", floor: Self.synthetic)
    }
}

/// The independent generator's tuning seeds, with every miss listed: what the
/// thresholds are chosen on. Run with `SPOTTER_TUNING=1 swift test --filter TuningSeeds`
/// (`SPOTTER_TUNING_EXERCISE=lunge` for one exercise; `SPOTTER_TUNING_MORE=N` adds N more
/// sets, `SPOTTER_TUNING_IDLE=N` N more idle sets, `SPOTTER_TUNING_VALIDATION=N` the totals of N
/// validation sets; `SPOTTER_TUNING_TRACKS=DIR` writes
/// every tuning set's track there, as EXERCISE-SEED.jsonl, to look at with `spotter analyze --landmarks`).
/// `swift test` at times drops the last lines the test process prints (the idle sets'); the test
/// binary run on its own prints them all: `.build/debug/SpotterPackageTests.xctest --testing-library swift-testing --filter TuningSeeds`.
@Suite(
    "WorkoutSimulator tuning seeds", .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["SPOTTER_TUNING"] == "1", "tuning runs only with SPOTTER_TUNING=1"))
struct TuningSeeds {
    @Test("accuracy and misses", arguments: WorkoutSimulator.exercises)
    func tuning(_ exercise: String) throws {
        let only = ProcessInfo.processInfo.environment["SPOTTER_TUNING_EXERCISE"]
        guard only?.isEmpty ?? true || only == exercise else { return }
        let evaluation = try GeneratorRuns.simulator(exercise, seeds: Seeds.simulatorTuning)
        print(evaluation.table("\(exercise) (WorkoutSimulator, tuning)"))
        for miss in evaluation.misses { print("miss \(exercise): \(miss)") }
        let tracks = ProcessInfo.processInfo.environment["SPOTTER_TUNING_TRACKS"] ?? ""
        try Self.write(exercise, Seeds.simulatorTuning, idleFrom: Seeds.simulatorSets, into: tracks)
        if let seeds = Self.firstSeeds(of: Seeds.simulatorTuningMore, countIn: "SPOTTER_TUNING_MORE") {
            let sets = try GeneratorRuns.simulator(exercise, seeds: seeds, setsFirst: seeds.count)
            print(sets.table("\(exercise) (WorkoutSimulator, more tuning sets)"))
            for miss in sets.misses { print("miss \(exercise) more: \(miss)") }
            try Self.write(exercise, seeds, idleFrom: seeds.count, into: tracks)
        }
        if let seeds = Self.firstSeeds(of: Seeds.simulatorValidation, countIn: "SPOTTER_TUNING_VALIDATION") {
            let sets = try GeneratorRuns.simulator(exercise, seeds: seeds, setsFirst: seeds.count)
            // Totals only: no miss is listed and no track written, so that these sets are not tuned on.
            print(sets.table("\(exercise) (WorkoutSimulator, validation sets)"))
        }
        guard let seeds = Self.firstSeeds(of: Seeds.simulatorTuningIdle, countIn: "SPOTTER_TUNING_IDLE") else { return }
        let idle = try GeneratorRuns.simulator(exercise, seeds: seeds, allIdle: true)
        print("accuracy \(exercise) (WorkoutSimulator, extra tuning idle sets): \(idle.idleSets) sets with \(idle.falseRepsOnIdle) reps")
        for miss in idle.misses { print("miss \(exercise) idle: \(miss)") }
        try Self.write(exercise, seeds, idleFrom: 0, into: tracks)
    }

    /// The first N seeds of `range`, N read from the environment variable `name`
    /// (at most the whole range); nil where it is unset or not above 0.
    static func firstSeeds(of range: ClosedRange<UInt64>, countIn name: String) -> ClosedRange<UInt64>? {
        guard let count = ProcessInfo.processInfo.environment[name].flatMap(Int.init), count > 0 else { return nil }
        return range.lowerBound...(range.lowerBound + UInt64(min(count, range.count)) - 1)
    }

    /// Writes the sets' tracks into `directory` (none when it is empty), as EXERCISE-SEED.jsonl.
    static func write(_ exercise: String, _ seeds: ClosedRange<UInt64>, idleFrom: Int, into directory: String) throws {
        guard !directory.isEmpty else { return }
        for (index, seed) in seeds.enumerated() {
            let session = WorkoutSimulator.session(exercise, seed: seed, idle: index >= idleFrom)
            try LandmarkTrackWriter.jsonLines(of: session.track).write(to: URL(fileURLWithPath: "\(directory)/\(exercise)-\(seed).jsonl"))
        }
    }
}
