/// Sets with no reps at all: walking in and out of frame, standing about, and
/// gestures that never add up to reps of the exercise (before a deadlift at most one
/// hinge to the floor, before a press at most one reach up, before curls at most
/// one hand to the face); for floor exercises, getting down on all fours and up again.
enum IdleRoutine {
    static func plan(_ exercise: String, _ body: BodyShape, _ camera: CameraRig, _ random: inout SimRandom) -> SessionPlan {
        let base = Gesture.standing(body, &random)
        var parts: [any Movement] = []
        var notes: [String] = []
        var framing: [Double] = []
        if random.chance(0.45) {
            parts.append(Walk(body, from: Setup.offFrame(camera, &random), to: .zero, start: 0, carrying: random.chance(0.3), &random))
            notes.append("walks in")
        }
        let limits: [Gesture: Int] = [
            .hinge: exercise == "deadlift" ? 1 : 2, .reachUp: exercise == "overhead_press" ? 1 : 2,
            .adjust: exercise == "bicep_curl" ? 1 : 2, .armSwings: 1, .shoulderRolls: 1, .still: 1, .lookAround: 1, .turn: 1,
        ]
        var used: [Gesture: Int] = [:]
        var kneeled = false
        for _ in 0..<random.int(3, 6) {
            let start = parts.last.map { $0.end } ?? 0
            let part: Keyframes
            if (exercise == "pushup" || exercise == "plank") && !kneeled && random.chance(0.4) {
                kneeled = true
                part = floorVisit(exercise, body, base, start, &random)
                notes.append(exercise == "pushup" ? "gets down on all fours (and may hold a plank, no push-ups)" : "gets down on all fours")
            } else {
                let gesture = random.pick(Gesture.allCases.filter { used[$0, default: 0] < limits[$0, default: 2] })
                used[gesture, default: 0] += 1
                part = gesture.keyframes(body, base: base, start: start, &random)
                notes.append(gesture.rawValue)
            }
            parts.append(part)
            framing += part.times
        }
        if random.chance(0.35) {
            let end = parts[parts.count - 1].end
            parts.append(Walk(body, from: .zero, to: Setup.offFrame(camera, &random), start: end, &random))
            notes.append("walks away")
        }
        return SessionPlan(script: MotionScript(body: body, parts: parts, blend: Routine.blend), framingTimes: framing,
                           summary: "idle: " + notes.joined(separator: ", "))
    }

    /// Down on all fours for a few seconds (before push-ups, sometimes into a still plank) and up again.
    private static func floorVisit(_ exercise: String, _ body: BodyShape, _ base: Pose, _ start: Double,
                                   _ random: inout SimRandom) -> Keyframes {
        let down = Floor.getDown(body, standing: base, start: start, reverse: false, &random)
        var times = down.times, poses = down.poses
        func then(_ seconds: Double, _ pose: Pose) {
            times.append(times[times.count - 1] + seconds)
            poses.append(pose)
        }
        then(random.uniform(1.5, 4), Floor.allFours(body))
        if exercise == "pushup" && random.chance(0.5) {
            let top = PushupForm.draw(body, &random).pose(nil, .rest)
            then(random.uniform(0.6, 1.0), top)
            then(random.uniform(2, 5), top)
            then(random.uniform(0.6, 1.0), Floor.allFours(body))
        }
        then(random.uniform(0.9, 1.4), Floor.crouch(body))
        then(random.uniform(0.9, 1.4), base)
        return Keyframes(times: times, poses: poses, body: body)
    }
}
