import Foundation

/// Deadlifts from the floor, conventional (knees well bent at the bottom) or
/// Romanian (knees kept at 150–165°, the hips doing the work). A rep runs from the
/// bar at the floor to lockout and back; the knees may straighten before the hips.
struct DeadliftForm: ExerciseForm {
    struct Detail: Sendable {
        /// Hip (shoulder–hip–knee) and knee angles at the top.
        var hip: Double
        var knee: Double
        /// How the knees and hips share the way up: progress exponents (below 1 = early).
        var kneePace: Double
        var hipPace: Double
    }

    var body: BodyShape
    var romanian: Bool
    var stanceHalf: Double
    var toeOut: Double
    /// At the floor: hip and knee angles, and how far the hips sit behind the ankles.
    var restHip: Double
    var restKnee: Double
    var restBack: Double
    var gripOut: Double

    var preparation: Preparation { .standAtBar }

    func pose(_ rep: Detail?, _ state: RepState) -> Pose {
        let (hip, knee, back) = channels(rep, state)
        return shape(hip: hip, knee: knee, back: back)
    }

    /// Hip and knee angles and how far the hips sit back, at a moment of a rep.
    func channels(_ rep: Detail?, _ state: RepState) -> (hip: Double, knee: Double, back: Double) {
        guard let rep else { return (restHip, restKnee, restBack) }
        func ease(_ x: Double) -> Double { 0.5 - 0.5 * cos(.pi * clamp(x, 0, 1)) }
        let (k, h) = state.outbound ? (ease(pow(state.phase, rep.kneePace)), ease(pow(state.phase, rep.hipPace))) : (state.u, state.u)
        return (lerp(restHip, rep.hip, h), lerp(restKnee, rep.knee, k), lerp(restBack, 0.02, h))
    }

    func shape(hip: Double, knee: Double, back: Double) -> Pose {
        var pose = legs(knee: knee, back: back)
        pose.lean = lean(for: hip, in: pose)
        pose.headPitch = -0.5 * pose.lean
        BodySide.forBoth { side in
            let shoulder = pose.shoulder(side, body), span = body.armSpan(elbow: 176)
            let out = side.lateral * gripOut
            pose[arm: side] = Limb(end: shoulder + Vec3(out, 0.02, -(span * span - out * out).squareRoot()), pole: Vec3(side.lateral, -1, 0))
            pose[hand: side] = HandPose(pronation: 175, flexion: 0, grip: 0.9)
        }
        return pose
    }

    /// Feet planted, knees at `knee`, the hips `back` behind the ankles; trunk upright for now.
    func legs(knee: Double, back: Double) -> Pose {
        var pose = Stand.pose(body, stanceHalf: stanceHalf, toeOut: toeOut, knee: 178, arms: false)
        let span = body.legSpan(knee: knee), lateral = body.hipHalf - stanceHalf
        let room = span * span - lateral * lateral
        let behind = min(back, 0.9 * room.squareRoot())
        pose.pelvis = Vec3(0, -behind, body.ankleHeight + (room - behind * behind).squareRoot())
        return pose
    }

    /// The left hip and knee, and the lean that lines the trunk up with the thigh (the widest hip angle).
    private func thigh(_ pose: Pose) -> (hip: Vec3, knee: Vec3, aligned: Double) {
        let hip = pose.hip(.left, body)
        let knee = reach(from: hip, to: pose.leftLeg.end, upper: body.thigh, lower: body.shin, pole: pose.leftLeg.pole).middle
        return (hip, knee, atan2(hip.y - knee.y, hip.z - knee.z) * 180 / .pi)
    }

    /// The trunk lean that makes the left shoulder–hip–knee angle `hip`: with the hip → shoulder
    /// vector (−Δ, T sin L, T cos L) and hip → knee k, solve T (k_y sin L + k_z cos L) = |v||k| cos(hip) + Δ k_x
    /// for the root past the lined-up lean, where the angle narrows as the trunk leans on.
    func lean(for hip: Double, in pose: Pose) -> Double {
        let (hipPoint, knee, _) = thigh(pose)
        let k = knee - hipPoint, across = body.shoulderHalf - body.hipHalf
        let shoulderReach = (across * across + body.torso * body.torso).squareRoot()
        let c = (shoulderReach * k.length * cosDeg(hip) + across * k.x) / body.torso
        let r = (k.y * k.y + k.z * k.z).squareRoot()
        var lean = (atan2(k.y, k.z) - acos(clamp(c / r, -1, 1))) * 180 / .pi
        if lean <= -180 { lean += 360 } else if lean > 180 { lean -= 360 }
        return lean
    }

    /// The widest hip angle the body can show with the knees at `knee`, standing tall.
    func widestHip(knee: Double) -> Double {
        var pose = legs(knee: knee, back: 0.02)
        let (hip, kneePoint, aligned) = thigh(pose)
        pose.lean = aligned
        return angleAt(pose.shoulder(.left, body), hip, kneePoint)
    }
}

extension DeadliftForm {
    static func draw(_ body: BodyShape, _ random: inout SimRandom) -> DeadliftForm {
        let romanian = random.chance(0.4)
        let stance = body.hipHalf * random.uniform(0.9, 1.4)
        return DeadliftForm(
            body: body, romanian: romanian, stanceHalf: stance, toeOut: random.uniform(3, 20),
            restHip: romanian ? random.uniform(80, 100) : random.uniform(55, 80),
            restKnee: romanian ? random.uniform(150, 154) : random.uniform(100, 125),
            restBack: romanian ? random.uniform(0.12, 0.2) * body.height / 1.75 : random.uniform(0.2, 0.32) * body.height / 1.75,
            gripOut: max(stance + random.uniform(0.03, 0.08) - body.shoulderHalf, 0))
    }

    func draft(_ index: Int, _ odds: FaultOdds, _ random: inout SimRandom) -> DraftRep<Detail> {
        let lockout = FaultBook.rule("deadlift", "partial_lockout"), early = FaultBook.rule("deadlift", "knees_locked_early")
        let short = odds.draw(lockout.code, &random), wantsEarly = odds.draw(early.code, &random)
        let cleanKnee = romanian ? random.uniform(155, 165) : random.uniform(166, 179)
        func rep(knee: Double) -> Detail {
            let widest = widestHip(knee: knee) - 1
            let hip = short ? lockout.faulty(toward: 135, &random) : lockout.clean(toward: max(lockout.cleanEdge + 1, min(widest, 176)), &random)
            return Detail(hip: hip, knee: knee, kneePace: random.uniform(1.0, 1.5), hipPace: random.uniform(0.7, 1.0))
        }
        // Knees straightening early where the pacing makes it clear; otherwise, and for the rest, knees waiting for the hips.
        var locksEarly = wantsEarly
        var detail = wantsEarly ? paced(rep(knee: random.uniform(174, 179)), kneesEarly: true, early) : nil
        if detail == nil {
            locksEarly = false
            let clean = rep(knee: cleanKnee)
            detail = paced(clean, kneesEarly: false, early) ?? Detail(hip: clean.hip, knee: clean.knee, kneePace: 7, hipPace: 0.5)
        }
        let chosen = detail!
        var faults = Set<String>()
        if short { faults.insert(lockout.code) }
        if locksEarly { faults.insert(early.code) }
        return DraftRep(
            detail: chosen, faults: faults, sides: [.left, .right],
            planned: [PlannedValue(measure: .hip(.left), value: chosen.hip), PlannedValue(measure: .hip(.right), value: chosen.hip),
                      PlannedValue(measure: .knee(.left), value: chosen.knee), PlannedValue(measure: .knee(.right), value: chosen.knee)])
    }

    /// The rep paced (knees against hips on the way up) so that the knees clearly straighten
    /// early, or clearly wait for the hips; nil when no pace makes it clear.
    private func paced(_ rep: Detail, kneesEarly: Bool, _ rule: FaultRule) -> Detail? {
        let paces = kneesEarly ? [(0.35, 1.8), (0.25, 2.4), (0.18, 3.0), (0.12, 4.0)]
            : [(rep.kneePace, rep.hipPace), (2.0, 0.8), (3.0, 0.7), (4.5, 0.6), (7.0, 0.5)]
        for (kneePace, hipPace) in paces {
            var trial = rep
            (trial.kneePace, trial.hipPace) = (kneePace, hipPace)
            if kneesLockEarly(trial, rule) == kneesEarly { return trial }
        }
        return nil
    }

    /// On the way up: true when the knees clearly straighten with the hips still well bent (for a
    /// tenth of the way up, so that it shows), false when they clearly wait for the hips, nil in between.
    func kneesLockEarly(_ rep: Detail, _ rule: FaultRule) -> Bool? {
        guard case .whenKneePasses(let kneeLimit) = rule.timing else { return nil }
        var faulty = 0, clean = true
        for step in 0...100 {
            let (hip, knee, _) = channels(rep, RepState(u: 0, outbound: true, phase: Double(step) / 100))
            // A degree to spare on each side, for whatever moments the truth is sampled at.
            if knee >= kneeLimit + rule.faultGap + 1 && rule.isFaulty(hip + 1) { faulty += 1 }
            if knee > kneeLimit - rule.cleanGap - 1 && !rule.isClean(hip - 1) { clean = false }
        }
        return faulty >= 10 ? true : clean ? false : nil
    }

    var summary: String {
        String(format: "%@, stance %.1f hip widths, toes out %.0f°, at the floor hips %.0f° knees %.0f°",
               romanian ? "Romanian" : "conventional", stanceHalf / body.hipHalf, toeOut, restHip, restKnee)
    }
}
