/// Push-ups on the floor or inclined (hands on a bench, the body 20–40° from
/// level), hands narrow, shoulder-width or wide; elbows that may lock past straight at the top.
struct PushupForm: ExerciseForm {
    enum Hands: String, CaseIterable { case narrow, shoulder = "shoulder-width", wide }

    struct Detail: Sendable {
        var elbow: Double
        var hipLine: Double
    }

    var body: BodyShape
    var prone: ProneBody
    var hands: Hands
    var handHalf: Double
    /// Where the left wrist rests (the right mirrors it).
    var wrist: Vec3
    /// Height of the bench under the hands; 0 on the floor.
    var bench: Double
    /// Elbow angle at the top; past 180 the elbows lock past straight.
    var restElbow: Double
    var restHipLine: Double
    /// How far the elbows flare out (0 tucked … 1.5 wide).
    var flare: Double

    var preparation: Preparation { .getDown }

    func pose(_ rep: Detail?, _ state: RepState) -> Pose {
        guard let rep else { return shape(elbow: restElbow, hipLine: restHipLine) }
        return shape(elbow: lerp(restElbow, rep.elbow, state.u), hipLine: lerp(restHipLine, rep.hipLine, smoothstep(state.u / 0.35)))
    }

    func shape(elbow: Double, hipLine: Double) -> Pose {
        let elevation = prone.elevation(placing: body.armSpan(elbow: elbow), from: wrist, hipLine: hipLine)
        var pose = prone.pose(elevation: elevation, hipLine: hipLine)
        let bend = elbow > 180 ? -1.0 : 1.0
        BodySide.forBoth { side in
            let end = Vec3(side.lateral * handHalf, wrist.y, wrist.z)
            pose[arm: side] = Limb(end: end, pole: Vec3(side.lateral * flare, -1, 0.3) * bend)
            pose[hand: side] = HandPose(pronation: 178, flexion: bench > 0 ? -70 : -88, grip: bench > 0 ? 0.5 : 0.05)
        }
        return pose
    }
}

extension PushupForm {
    static func draw(_ body: BodyShape, _ random: inout SimRandom) -> PushupForm {
        let prone = ProneBody.draw(body, &random)
        let hands = random.weighted([(Hands.narrow, 0.25), (.shoulder, 0.5), (.wide, 0.25)])
        let widths: Double = switch hands {
        case .narrow: random.uniform(0.55, 0.8)
        case .shoulder: random.uniform(1.05, 1.3)
        case .wide: random.uniform(1.45, 1.9)
        }
        let handHalf = body.shoulderHalf * widths
        let restElbow = random.chance(0.25) ? random.uniform(181, 188) : random.uniform(162, 178)
        let restHipLine = random.uniform(-0.05, 0.08)
        let ahead = random.uniform(-0.04, 0.1)
        let span = body.armSpan(elbow: restElbow), across = handHalf - body.shoulderHalf
        let drop = (span * span - across * across - ahead * ahead).squareRoot()
        let wristAboveFloor = 0.035 * body.height / 1.75
        func wrist(_ elevation: Double) -> Vec3 {
            let shoulder = prone.shoulder(.left, elevation: elevation, hipLine: restHipLine)
            return Vec3(-handHalf, shoulder.y + ahead, shoulder.z - drop)
        }
        let floor = solve(wristAboveFloor, in: -12, 75) { wrist($0).z }
        let incline = random.chance(0.3)
        let top = incline ? random.uniform(max(floor + 8, 20), max(floor + 12, 40)) : floor
        let hand = wrist(top)
        return PushupForm(body: body, prone: prone, hands: hands, handHalf: handHalf, wrist: hand,
                          bench: incline ? hand.z - wristAboveFloor : 0, restElbow: restElbow, restHipLine: restHipLine,
                          flare: hands == .wide ? random.uniform(0.8, 1.5) : random.uniform(0.1, 0.7))
    }

    func draft(_ index: Int, _ odds: FaultOdds, _ random: inout SimRandom) -> DraftRep<Detail> {
        let depth = FaultBook.rule("pushup", "shallow_depth")
        let sag = FaultBook.rule("pushup", "hip_sag"), pike = FaultBook.rule("pushup", "hip_pike")
        let shallow = odds.draw(depth.code, &random)
        let elbow = shallow ? depth.faulty(toward: 130, &random) : depth.clean(toward: 60, &random)
        var faults: Set<String> = shallow ? [depth.code] : []
        var hipLine = clamp(restHipLine + random.uniform(-0.03, 0.03), sag.cleanEdge + 0.01, pike.cleanEdge - 0.01)
        if odds.draw(sag.code, &random) {
            hipLine = sag.faulty(toward: -0.32, &random)
            faults.insert(sag.code)
        } else if odds.draw(pike.code, &random) {
            hipLine = pike.faulty(toward: 0.4, &random)
            faults.insert(pike.code)
        }
        return DraftRep(
            detail: Detail(elbow: elbow, hipLine: hipLine), faults: faults, sides: [.left, .right],
            planned: [PlannedValue(measure: .elbow(.left), value: elbow), PlannedValue(measure: .elbow(.right), value: elbow),
                      PlannedValue(measure: .hipLine, value: hipLine)])
    }

    var summary: String {
        let surface = bench > 0 ? String(format: "inclined (hands on a %.2f m bench)", bench) : "on the floor"
        return String(format: "%@, hands %@ (%.1f shoulder widths), elbows %.0f° at the top%@, knees %.0f°", surface, hands.rawValue,
                      handHalf / body.shoulderHalf, restElbow, restElbow > 180 ? " (locked past straight)" : "", prone.knee)
    }
}
