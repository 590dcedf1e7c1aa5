import Foundation

/// A plank held on the forearms or on straight arms; the hips now and then sag or
/// pike for a second or more and come back.
struct PlankHold: Movement {
    /// A stretch where the hips leave their line: they ease to `peak` (torso lengths) and back.
    struct Excursion: Sendable {
        var code: String
        var start: Double
        var ramp: Double
        var plateau: Double
        var peak: Double
        var end: Double { start + 2 * ramp + plateau }
    }

    var body: BodyShape
    var prone: ProneBody
    var forearms: Bool
    /// Left elbow (forearms) or left wrist (straight arms) on the floor; the right mirrors it.
    var support: Vec3
    var straightElbow: Double
    var baseline: Double
    var excursions: [Excursion]
    var start: Double
    var end: Double

    func hipLine(at t: Double) -> Double {
        var value = baseline
        for e in excursions where t > e.start && t < e.end {
            let w = t < e.start + e.ramp ? smoothstep((t - e.start) / e.ramp) : t > e.end - e.ramp ? smoothstep((e.end - t) / e.ramp) : 1
            value = baseline + (e.peak - baseline) * w
        }
        return value
    }

    func pose(at t: Double) -> Pose { PlankHold.shape(body, prone, forearms, support, straightElbow, hipLine(at: t)) }

    static func shape(_ body: BodyShape, _ prone: ProneBody, _ forearms: Bool, _ support: Vec3, _ straightElbow: Double,
                      _ hipLine: Double) -> Pose {
        let reach = forearms ? body.upperArm : body.armSpan(elbow: straightElbow)
        var pose = prone.pose(elevation: prone.elevation(placing: reach, from: support, hipLine: hipLine), hipLine: hipLine)
        BodySide.forBoth { side in
            let point = Vec3(side.lateral * abs(support.x), support.y, support.z)
            if forearms {
                let wrist = point + Vec3(-side.lateral * 0.06, (body.forearm * body.forearm - 0.0036 - 0.0004).squareRoot(), -0.02)
                pose[arm: side] = Limb.through(pose.shoulder(side, body), point, wrist)
                pose[hand: side] = HandPose(pronation: 170, flexion: 0, grip: 0.5)
            } else {
                pose[arm: side] = Limb(end: point, pole: Vec3(side.lateral * 0.4, -1, 0.2) * (straightElbow > 180 ? -1 : 1))
                pose[hand: side] = HandPose(pronation: 178, flexion: -88, grip: 0.05)
            }
        }
        return pose
    }
}

extension PlankHold {
    /// A plank: get down (or start on all fours), into the plank, hold it (maybe
    /// dropping the knees for a breather), down onto the knees, sometimes stand up.
    static func plan(_ body: BodyShape, _ camera: CameraRig, _ random: inout SimRandom) -> SessionPlan {
        let prone = ProneBody.draw(body, &random)
        let forearms = random.chance(0.55)
        let straightElbow = random.chance(0.25) ? random.uniform(181, 187) : random.uniform(165, 178)
        let baseline = random.uniform(-0.05, 0.08)
        let support = supportPoint(body, prone, forearms, straightElbow, baseline, &random)
        let standing = Stand.pose(body, stanceHalf: body.hipHalf, toeOut: 8, knee: 177)
        let blend = Routine.blend
        var parts: [any Movement] = []
        var t = 0.0
        if random.chance(0.4) {
            let walk = Walk(body, from: Setup.offFrame(camera, &random), to: .zero, start: 0, &random)
            parts.append(walk)
            t = walk.end
        }
        if parts.isEmpty && random.chance(0.5) {
            parts.append(Keyframes(times: [0, random.uniform(1, 2.5)], poses: [Floor.allFours(body), Floor.allFours(body)]))
        } else {
            parts.append(Keyframes(times: [t, t + random.uniform(0.5, 1.5)], poses: [standing, standing]))
            parts.append(Floor.getDown(body, standing: standing, start: parts[parts.count - 1].end, reverse: false, &random))
        }
        let odds = FaultOdds(FaultBook.codes("plank"), &random)
        let breaks = random.chance(0.25) ? 1 : 0
        var holds: [PlankHold] = []
        var lies = false
        for index in 0...breaks {
            t = parts[parts.count - 1].end
            let seconds = random.uniform(8, 45) / Double(breaks + 1)
            var hold = PlankHold(body: body, prone: prone, forearms: forearms, support: support, straightElbow: straightElbow,
                                 baseline: baseline, excursions: [], start: t, end: t + blend + seconds)
            hold.excursions = excursions(from: t + blend, to: hold.end, baseline: baseline, odds, &random)
            parts.append(hold)
            holds.append(hold)
            var end = hold.end
            if index == breaks && random.chance(0.35) {
                // Lets go of the plank and lies flat on the floor for a while: no hold.
                let lying = Floor.lyingFlat(body, prone, armsForward: random.chance(0.5))
                end += random.uniform(2, 6)
                parts.append(Keyframes(times: [hold.end, end], poses: [lying, lying]))
                lies = true
            }
            let rest = index < breaks ? random.uniform(1.5, 4) : random.uniform(1, 3)
            parts.append(Keyframes(times: [end, end + rest], poses: [Floor.allFours(body), Floor.allFours(body)]))
        }
        if random.chance(0.5) {
            parts.append(Floor.getDown(body, standing: standing, start: parts[parts.count - 1].end, reverse: true, &random))
            let end = parts[parts.count - 1].end
            parts.append(Keyframes(times: [end, end + random.uniform(0.5, 2)], poses: [standing, standing]))
        }
        let spans = holds.map { milliseconds($0.start + blend)..<milliseconds($0.end) }
        let faults = holds.flatMap(\.truthSpans)
        let summary = String(format: "%@ plank, %@, knees %.0f°, hips %+.2f torso lengths off the line, %d hold%@, %d fault stretches%@",
                             forearms ? "forearm" : "straight-arm", forearms ? "elbows under the shoulders" : String(format: "elbows %.0f°", straightElbow),
                             prone.knee, baseline, holds.count, holds.count > 1 ? "s (knees down between)" : "", faults.count,
                             lies ? ", then lies flat on the floor" : "")
        return SessionPlan(
            script: MotionScript(body: body, parts: parts, blend: blend),
            hold: SimulatedHold(heldMs: spans.reduce(0) { $0 + $1.count }, faults: faults, spans: spans),
            framingTimes: holds.flatMap { [$0.start + blend, ($0.start + $0.end) / 2, $0.end] },
            summary: summary)
    }

    /// Where the left elbow (forearms) or wrist rests so that the upper arm or the whole arm stands upright under the shoulder.
    private static func supportPoint(_ body: BodyShape, _ prone: ProneBody, _ forearms: Bool, _ straightElbow: Double,
                                     _ hipLine: Double, _ random: inout SimRandom) -> Vec3 {
        let s = body.height / 1.75
        let height = forearms ? 0.05 * s : 0.035 * s
        let half = forearms ? body.shoulderHalf * random.uniform(0.8, 1.1) : body.shoulderHalf * random.uniform(0.95, 1.4)
        let reach = forearms ? body.upperArm : body.armSpan(elbow: straightElbow)
        let ahead = random.uniform(-0.03, 0.08), across = half - body.shoulderHalf
        let drop = (reach * reach - across * across - ahead * ahead).squareRoot()
        let elevation = solve(height, in: -12, 75) { prone.shoulder(.left, elevation: $0, hipLine: hipLine).z - drop }
        let shoulder = prone.shoulder(.left, elevation: elevation, hipLine: hipLine)
        return Vec3(-half, shoulder.y + ahead, height)
    }

    /// Sags and pikes within a hold, each held well past the 800 ms the fault needs.
    private static func excursions(from first: Double, to last: Double, baseline: Double, _ odds: FaultOdds,
                                   _ random: inout SimRandom) -> [Excursion] {
        let sag = FaultBook.rule("plank", "hip_sag"), pike = FaultBook.rule("plank", "hip_pike")
        var list: [Excursion] = []
        var t = first + random.uniform(1, 4)
        while true {
            let code = odds.draw(sag.code, &random) ? sag.code : odds.draw(pike.code, &random) ? pike.code : nil
            let ramp = random.uniform(0.3, 0.8), plateau = random.uniform(1.2, 5)
            guard t + 2 * ramp + plateau + 1 < last else { break }
            if let code {
                let peak = code == sag.code ? sag.faulty(toward: -0.32, &random) : pike.faulty(toward: 0.4, &random)
                list.append(Excursion(code: code, start: t, ramp: ramp, plateau: plateau, peak: peak))
            }
            t += 2 * ramp + plateau + random.uniform(1.5, 6)
        }
        return list
    }

    /// Where each excursion is past its fault's limit, milliseconds.
    var truthSpans: [SimulatedFaultSpan] {
        excursions.map { e in
            let limit = FaultBook.rule("plank", e.code).limit
            let x = solve((limit - baseline) / (e.peak - baseline), in: 0, 1) { smoothstep($0) }
            return SimulatedFaultSpan(code: e.code, startMs: milliseconds(e.start + x * e.ramp), endMs: milliseconds(e.end - x * e.ramp))
        }
    }
}
