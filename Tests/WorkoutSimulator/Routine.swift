import Foundation

/// A session's motion and what the truth says about it.
struct SessionPlan {
    var script: MotionScript
    var reps: [SimulatedRep] = []
    var hold: SimulatedHold?
    /// Moments to frame the camera on: the person at their spot.
    var framingTimes: [Double]
    /// What was drawn for the motion, for failure messages.
    var summary: String
}

/// Milliseconds, rounded, from seconds.
func milliseconds(_ seconds: Double) -> Int { Int((seconds * 1000).rounded()) }

/// Sets of reps: rest, the reps, rest; sometimes walking in first or away after,
/// and shifting or turning a little between reps.
enum Routine {
    static let blend = 0.6

    /// The plan of a session; walking lunges turn the camera to face the person (they walk toward it).
    /// `variation` draws what later versions added to a form, leaving `random`'s draws as they were.
    static func plan(
        _ exercise: String, idle: Bool, _ body: BodyShape, _ camera: inout CameraRig, _ random: inout SimRandom, variation: inout SimRandom
    ) -> SessionPlan {
        if idle { return IdleRoutine.plan(exercise, body, camera, &random) }
        switch exercise {
        case "squat": return set(SquatForm.draw(body, &random), exercise, camera, &random)
        case "pushup": return set(PushupForm.draw(body, &random), exercise, camera, &random)
        case "bicep_curl": return set(CurlForm.draw(body, &random, variation: &variation), exercise, camera, &random)
        case "lunge":
            let form = LungeForm.draw(body, &random)
            if form.style == .walking { camera.yaw = random.uniform(-20, 20) }
            return set(form, exercise, camera, &random)
        case "overhead_press": return set(PressForm.draw(body, &random), exercise, camera, &random)
        case "jumping_jack": return set(JumpingJackForm.draw(body, &random), exercise, camera, &random)
        case "deadlift": return set(DeadliftForm.draw(body, &random), exercise, camera, &random)
        default: return PlankHold.plan(body, camera, &random)
        }
    }

    static func set<Form: ExerciseForm>(_ form: Form, _ exercise: String, _ camera: CameraRig, _ random: inout SimRandom) -> SessionPlan {
        let body = form.body
        let odds = FaultOdds(FaultBook.codes(exercise), &random)
        let tempo = Tempo.draw(exercise, &random)
        let band = random.weighted([(1...2, 0.1), (3...6, 0.45), (7...9, 0.3), (10...12, 0.15)]).clamped(to: 1...form.maxReps)
        let count = random.int(band.lowerBound, band.upperBound)
        var parts: [any Movement] = []
        var notes: [String] = []
        if form.preparation != .getDown && random.chance(0.3) {
            parts.append(Walk(body, from: Setup.offFrame(camera, &random), to: .zero, start: 0, &random))
            notes.append("walks in")
        }
        notes += Setup.before(form.preparation, body, &parts, &random)
        let start = parts.last?.end ?? 0
        let drafts = (0..<count).map { form.draft($0, odds, &random) }
        let reps = SetPlanner.schedule(drafts, form: form, exercise: exercise, from: start + blend + random.uniform(0.8, 3.0),
                                       tempo: tempo, &random)
        let end = reps[reps.count - 1].timing.end + random.uniform(0.8, 2.5)
        let set = ExerciseSet(form: form, reps: reps, start: start, end: end, placement: .identity,
                              drifts: drifts(reps, start: start, end: end, &random),
                              glance: (random.uniform(0, 12), random.uniform(20, 60)))
        parts.append(set)
        notes += Setup.after(form.preparation, body, at: set.placement(at: end), &parts, &random)
        if random.chance(0.25) {
            let last = parts[parts.count - 1]
            parts.append(Walk(body, from: last.pose(at: last.end).pelvis, to: Setup.offFrame(camera, &random), start: last.end, &random))
            notes.append("walks away")
        }
        let partial = reps.filter { !$0.draft.faults.isDisjoint(with: FaultBook.rangeCodes) }.count
        return SessionPlan(
            script: MotionScript(body: body, parts: parts, blend: blend),
            reps: reps.map { rep in
                SimulatedRep(startMs: milliseconds(rep.timing.start), turnMs: milliseconds(rep.timing.turn),
                             endMs: milliseconds(rep.timing.end), faults: rep.draft.faults,
                             partial: !rep.draft.faults.isDisjoint(with: FaultBook.rangeCodes), sides: rep.draft.sides,
                             planned: rep.draft.planned)
            },
            framingTimes: [start + blend] + reps.flatMap { [$0.timing.start, $0.timing.turn] } + [end],
            summary: "\(form.summary); \(count) rep\(count == 1 ? "" : "s") (\(partial) partial), \(tempo.summary); "
                + (notes.isEmpty ? "no set-up" : notes.joined(separator: ", ")))
    }

    /// Now and then, in a rest of a second or more, a small step aside or turn.
    static func drifts<Detail>(_ reps: [PlannedRep<Detail>], start: Double, end: Double, _ random: inout SimRandom) -> [Drift] {
        var rests = [(start + blend, reps[0].timing.start)]
        for (a, b) in zip(reps, reps.dropFirst()) { rests.append((a.timing.end, b.timing.start)) }
        rests.append((reps[reps.count - 1].timing.end, end))
        var drifts: [Drift] = []
        for (from, to) in rests where to - from > 0.8 && random.chance(0.3) {
            drifts.append(Drift(start: from + 0.1, duration: min(to - from - 0.2, 1.0),
                                shift: Vec3(random.uniform(-0.08, 0.08), random.uniform(-0.08, 0.08), 0), turn: random.uniform(-6, 6)))
        }
        return drifts
    }
}

/// Getting into and out of a set.
enum Setup {
    /// What happens at the spot before the set, appended to `parts`; returns what was done.
    static func before(_ preparation: Preparation, _ body: BodyShape, _ parts: inout [any Movement], _ random: inout SimRandom) -> [String] {
        let start = parts.last?.end ?? 0
        let standing = Gesture.standing(body, &random)
        switch preparation {
        case .pickUp where random.chance(0.5):
            parts.append(Gesture.hinge.keyframes(body, base: standing, start: start, &random))
            return ["picks up the weights"]
        case .unrack where random.chance(0.5):
            parts.append(Walk(body, from: Vec3(0, body.leg * 0.8, 0), to: .zero, start: start, backward: true, carrying: true, &random))
            return ["steps back from the rack"]
        case .getDown where random.chance(0.6):
            parts.append(Keyframes(times: [start, start + random.uniform(0.5, 1.5)], poses: [standing, standing]))
            parts.append(Floor.getDown(body, standing: standing, start: parts[parts.count - 1].end, reverse: false, &random))
            return ["gets down"]
        case .standAtBar:
            parts.append(Keyframes(times: [start, start + random.uniform(0.8, 2.0)], poses: [standing, standing]))
            return ["stands at the bar"]
        default:
            return []
        }
    }

    /// What happens at the spot after the set (placed where the set ended), appended to `parts`.
    static func after(_ preparation: Preparation, _ body: BodyShape, at place: Placement, _ parts: inout [any Movement],
                      _ random: inout SimRandom) -> [String] {
        let start = parts[parts.count - 1].end
        let standing = place.placed(Gesture.standing(body, &random))
        switch preparation {
        case .getDown where random.chance(0.5):
            let up = Floor.getDown(body, standing: Gesture.standing(body, &random), start: start, reverse: true, &random)
            parts.append(Keyframes(times: up.times, poses: up.poses.map { place.placed($0) }, body: body))
            return ["gets up"]
        case .standAtBar:
            parts.append(Keyframes(times: [start, start + random.uniform(1.0, 2.0)], poses: [standing, standing]))
            return ["stands up"]
        default:
            return []
        }
    }

    /// A spot to one side of the camera's view, a few metres from the person's spot.
    static func offFrame(_ camera: CameraRig, _ random: inout SimRandom) -> Vec3 {
        let across = camera.axes().right.level.unit()
        return across * (random.sign() * random.uniform(2.5, 4.5)) + levelDirection(camera.yaw) * random.uniform(-1, 0.5)
    }
}
