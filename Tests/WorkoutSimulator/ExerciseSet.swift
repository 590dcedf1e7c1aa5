/// A value the plan sets for the turn of a rep, to be found again on the true kinematics.
package struct PlannedValue: Sendable {
    package var measure: TrueMeasure
    package var value: Double
}

/// A rep as drafted, before it is given its time: the exercise's own parameters,
/// its faults, the sides it works, and the values planned for its turn.
struct DraftRep<Detail: Sendable>: Sendable {
    var detail: Detail
    var faults: Set<String>
    var sides: [BodySide]
    var planned: [PlannedValue]
}

/// A rep as planned: a draft with its timing.
struct PlannedRep<Detail: Sendable>: Sendable {
    var draft: DraftRep<Detail>
    var timing: RepTiming
}

/// How a set is got ready for, besides walking in: picking up dumbbells (a hinge),
/// stepping back out of a rack, getting down on the floor, or standing at the bar.
enum Preparation { case none, pickUp, unrack, getDown, standAtBar }

/// An exercise's way of moving: the pose at rest and at any moment of a rep,
/// made at the origin facing +y.
protocol ExerciseForm: Sendable {
    associatedtype Detail: Sendable
    var body: BodyShape { get }
    func pose(_ rep: Detail?, _ state: RepState) -> Pose
    /// Draws rep number `index` of a set (from 0): its parameters, clearly clean or clearly faulty.
    func draft(_ index: Int, _ odds: FaultOdds, _ random: inout SimRandom) -> DraftRep<Detail>
    /// What was drawn for the set, for failure messages.
    var summary: String { get }
    var preparation: Preparation { get }
    /// The most reps a set of this form has.
    var maxReps: Int { get }
    /// How far the person has moved on (in their own frame) when a rep ends: walking lunges step forward.
    func advance(after rep: Detail) -> Vec3
}

extension ExerciseForm {
    func advance(after rep: Detail) -> Vec3 { .zero }
    var preparation: Preparation { .none }
    var maxReps: Int { 12 }
}

/// A slow shift in where the person stands: a step aside, a small turn.
struct Drift: Sendable {
    var start: Double
    var duration: Double
    var shift: Vec3
    var turn: Double
}

/// A set of reps: the form's rest pose between them, each rep's motion at its
/// time, the whole placed in the room and drifting a little.
struct ExerciseSet<Form: ExerciseForm>: Movement {
    var form: Form
    /// Each rep's timing and parameters, and how far it moves the person on.
    var timings: [RepTiming]
    var details: [Form.Detail]
    var advances: [Vec3]
    var start: Double
    var end: Double
    var placement: Placement
    var drifts: [Drift]
    /// Head turning now and then: amplitude (degrees) and angular rate.
    var glance: (amplitude: Double, rate: Double)

    init(form: Form, reps: [PlannedRep<Form.Detail>], start: Double, end: Double, placement: Placement, drifts: [Drift],
         glance: (amplitude: Double, rate: Double)) {
        self.form = form
        timings = reps.map(\.timing)
        details = reps.map(\.draft.detail)
        advances = details.map { form.advance(after: $0) }
        self.start = start
        self.end = end
        self.placement = placement
        self.drifts = drifts
        self.glance = glance
    }

    func placement(at t: Double) -> Placement {
        var place = placement
        for drift in drifts {
            let w = smoothstep((t - drift.start) / drift.duration)
            place.origin += place.direction(drift.shift) * w
            place.heading += drift.turn * w
        }
        for index in timings.indices where timings[index].end <= t {
            place.origin += place.direction(advances[index])
        }
        return place
    }

    func pose(at t: Double) -> Pose {
        var local: Pose?
        for index in timings.indices where timings[index].start <= t && t < timings[index].end {
            local = form.pose(details[index], timings[index].state(at: t))
        }
        var pose = local ?? form.pose(nil, .rest)
        pose.headTurn += glance.amplitude * sinDeg(t * glance.rate)
        return placement(at: t).placed(pose)
    }
}

/// Lays out a set's reps in time.
enum SetPlanner {
    /// `drafts` one after another from `first` seconds, paced by `tempo`; where a
    /// rep carries a sustained fault, its pause at the turn is stretched until the
    /// fault lasts its time plus `FaultRule.sustainMargin`.
    static func schedule<Form: ExerciseForm>(
        _ drafts: [DraftRep<Form.Detail>], form: Form, exercise: String, from first: Double, tempo: Tempo,
        _ random: inout SimRandom
    ) -> [PlannedRep<Form.Detail>] {
        var reps: [PlannedRep<Form.Detail>] = []
        var t = first
        for draft in drafts {
            var timing = tempo.rep(startingAt: t, &random)
            for rule in FaultBook.rules(exercise) where draft.faults.contains(rule.code) {
                guard case .sustained(let ms) = rule.timing else { continue }
                let needed = (ms + FaultRule.sustainMargin) / 1000
                let held = shortestRun(of: rule, draft, timing, form)
                if held < needed {
                    let extra = needed - held + 0.03
                    timing.leave += extra
                    timing.end += extra
                }
            }
            reps.append(PlannedRep(draft: draft, timing: timing))
            t = timing.end + tempo.gap(&random)
        }
        return reps
    }

    /// How long, on the side where it is shortest, the rep stays beyond the rule's faulty edge around its turn.
    private static func shortestRun<Form: ExerciseForm>(
        of rule: FaultRule, _ draft: DraftRep<Form.Detail>, _ timing: RepTiming, _ form: Form
    ) -> Double {
        let measures = rule.measures(draft.sides), hands = measures.contains { $0.needsHands }, step = 0.04
        func faulty(_ t: Double) -> Bool {
            let skeleton = Skeleton(form.pose(draft.detail, timing.state(at: t)), form.body, hands: hands)
            return measures.allSatisfy { rule.isFaulty($0.value(in: skeleton)) }
        }
        // The pause at the turn holds one pose: beyond the edge all through, or not at all.
        guard faulty(timing.turn) else { return 0 }
        var first = timing.arrive, last = timing.leave
        while first - step > timing.start && faulty(first - step) { first -= step }
        while last + step < timing.end && faulty(last + step) { last += step }
        return last - first - step
    }
}
