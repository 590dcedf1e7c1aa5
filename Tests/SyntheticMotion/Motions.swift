#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// One rep's settings: the values it reaches at its turn and the faults it carries.
public struct RepPlan: Sendable {
    public var faults: Set<String> = []
    var values: [String: Double] = [:]
    /// For alternating movements (lunges), which leg leads: 0 left, 1 right.
    var leadingSide = 0

    subscript(key: String) -> Double { values[key] ?? 0 }
}

/// An exercise's kinematics: the body at rest and at any point of a rep, and
/// how reps and their faults are drawn. Test code: the scoring engine knows none of this.
protocol Motion: Sendable {
    var exercise: String { get }
    /// The faults the generator injects, with their probability per rep.
    var faultRates: [String: Double] { get }
    /// Seconds a rep takes at a normal tempo.
    var tempo: ClosedRange<Double> { get }
    var usesHands: Bool { get }
    /// The view the exercise is filmed from by default.
    var camera: CameraSetup { get }
    func plan(_ random: inout SeededRandom, faulty: Set<String>) -> RepPlan
    /// The body `progress` of the way from rest (0) to the rep's turn (1); `returning` in the second half.
    func body(progress: Double, returning: Bool, plan: RepPlan, skeleton: Skeleton) -> BodyPoints
}

extension Motion {
    var usesHands: Bool { false }
    var camera: CameraSetup { .left }

    func rest(_ skeleton: Skeleton) -> BodyPoints {
        body(progress: 0, returning: false, plan: RepPlan(), skeleton: skeleton)
    }
}

func lerp(_ a: Double, _ b: Double, _ t: Double) -> Double { a + (b - a) * t }

func pick(_ random: inout SeededRandom, _ fault: String, in faulty: Set<String>, good: ClosedRange<Double>, bad: ClosedRange<Double>) -> Double {
    random.uniform(faulty.contains(fault) ? bad : good)
}

struct SquatMotion: Motion {
    let exercise = "squat"
    let faultRates = ["shallow_depth": 0.3, "forward_lean": 0.3, "knee_valgus": 0.3]
    let tempo = 1.4...3.2

    func plan(_ random: inout SeededRandom, faulty: Set<String>) -> RepPlan {
        var plan = RepPlan(faults: faulty)
        plan.values["knee"] = pick(&random, "shallow_depth", in: faulty, good: 66...90, bad: 108...121)
        plan.values["lean"] = pick(&random, "forward_lean", in: faulty, good: 18...33, bad: 54...66)
        // Good form pushes the knees out over the toes; valgus lets them cave in.
        plan.values["valgus"] = pick(&random, "knee_valgus", in: faulty, good: -0.07...(-0.04), bad: 0.11...0.14)
        return plan
    }

    func body(progress s: Double, returning: Bool, plan: RepPlan, skeleton: Skeleton) -> BodyPoints {
        let knee = lerp(176, plan.values["knee"] ?? 176, s)
        let shank = -(180 - knee) * 0.35
        var posture = StandingPosture()
        posture.lean = lerp(4, plan.values["lean"] ?? 4, s)
        for side in 0..<2 {
            posture.legs[side] = .init(thigh: 180 - knee + shank, shank: shank, abduction: 8, valgus: lerp(0, plan["valgus"], s))
            posture.arms[side] = .hanging(flexion: 15, abduction: 40, elbow: 70, wrist: 5)
        }
        return posture.points(skeleton)
    }
}

struct LungeMotion: Motion {
    let exercise = "lunge"
    let faultRates = ["shallow_depth": 0.3, "forward_lean": 0.3]
    let tempo = 1.6...3.2

    func plan(_ random: inout SeededRandom, faulty: Set<String>) -> RepPlan {
        var plan = RepPlan(faults: faulty)
        plan.values["knee"] = pick(&random, "shallow_depth", in: faulty, good: 80...91, bad: 112...119)
        plan.values["back"] = random.uniform(4...9)
        plan.values["lean"] = pick(&random, "forward_lean", in: faulty, good: 4...14, bad: 39...48)
        plan.leadingSide = random.chance(0.5) ? 0 : 1
        return plan
    }

    func body(progress s: Double, returning: Bool, plan: RepPlan, skeleton: Skeleton) -> BodyPoints {
        var posture = StandingPosture()
        posture.lean = lerp(3, plan.values["lean"] ?? 3, s)
        let front = lerp(178, plan.values["knee"] ?? 178, s)
        let back = lerp(178, (plan.values["knee"] ?? 172) + plan["back"], s)
        let lead = plan.leadingSide
        let frontShank = lerp(18, -4, s), backThigh = lerp(-18, -4, s)
        posture.legs[lead] = .init(thigh: 180 - front + frontShank, shank: frontShank, abduction: 4)
        posture.legs[1 - lead] = .init(thigh: backThigh, shank: backThigh - (180 - back), abduction: 4)
        return posture.points(skeleton)
    }
}

struct DeadliftMotion: Motion {
    let exercise = "deadlift"
    let faultRates = ["partial_lockout": 0.3, "knees_locked_early": 0.3]
    let tempo = 1.8...3.4

    func plan(_ random: inout SeededRandom, faulty: Set<String>) -> RepPlan {
        var plan = RepPlan(faults: faulty)
        plan.values["lockout"] = pick(&random, "partial_lockout", in: faulty, good: 170...177, bad: 140...150)
        plan.values["early"] = faulty.contains("knees_locked_early") ? 1 : 0
        return plan
    }

    /// Progress 0 is the bar on the floor, 1 the lockout.
    func body(progress s: Double, returning: Bool, plan: RepPlan, skeleton: Skeleton) -> BodyPoints {
        let kneeProgress = plan["early"] == 1 && !returning ? min(1, s / 0.35) : s
        let knee = lerp(100, 178, kneeProgress)
        let shank = lerp(-25, 0, kneeProgress)
        let thigh = 180 - knee + shank
        let hip = lerp(60, plan.values["lockout"] ?? 175, s)
        var posture = StandingPosture()
        posture.lean = 180 - hip - thigh
        for side in 0..<2 {
            posture.legs[side] = .init(thigh: thigh, shank: shank, abduction: 5)
            posture.arms[side] = .hanging(flexion: 0, abduction: 6, elbow: 176, wrist: 4)
        }
        return posture.points(skeleton)
    }
}

/// A single-leg Romanian deadlift: the trunk hinges forward over one softly
/// bent leg while the other rises behind in line with it, so that its hip stays
/// open. Progress 0 is the hinge, 1 standing on both feet.
struct SingleLegDeadliftMotion: Motion {
    let exercise = "deadlift"
    let faultRates: [String: Double] = [:]
    let tempo = 2.4...3.4

    func plan(_ random: inout SeededRandom, faulty: Set<String>) -> RepPlan {
        RepPlan(faults: faulty, values: ["hinge": random.uniform(72...86)])
    }

    func body(progress s: Double, returning: Bool, plan: RepPlan, skeleton: Skeleton) -> BodyPoints {
        let hinge = lerp(plan.values["hinge"] ?? 80, 3, s)
        var posture = StandingPosture()
        posture.lean = hinge
        posture.legs[0] = .init(thigh: lerp(14, 0, s), shank: lerp(-6, 0, s), abduction: 5)
        posture.legs[1] = .init(thigh: -(hinge - 5), shank: -(hinge - 5), abduction: 5)
        for side in 0..<2 { posture.arms[side] = .hanging(flexion: 0, abduction: 6, elbow: 176, wrist: 4) }
        var body = posture.points(skeleton)
        // The standing foot stays where it stands; the raised one leaves the ground.
        let standing = body.pose[27]
        body.translate(by: Vector(-standing.x, 0, -skeleton.pelvisWidth / 2 - standing.z))
        return body
    }
}

struct CurlMotion: Motion {
    let exercise = "bicep_curl"
    let faultRates = ["partial_rom": 0.3, "elbow_drift": 0.3, "torso_swing": 0.3, "bent_wrist": 0.3]
    let tempo = 1.5...3.2
    var usesHands: Bool { true }

    func plan(_ random: inout SeededRandom, faulty: Set<String>) -> RepPlan {
        var plan = RepPlan(faults: faulty)
        plan.values["elbow"] = pick(&random, "partial_rom", in: faulty, good: 34...47, bad: 63...72)
        plan.values["drift"] = pick(&random, "elbow_drift", in: faulty, good: 1...11, bad: 33...44)
        plan.values["swing"] = pick(&random, "torso_swing", in: faulty, good: 0...4, bad: 17...23)
        plan.values["wrist"] = pick(&random, "bent_wrist", in: faulty, good: 5...16, bad: 42...55)
        return plan
    }

    func body(progress s: Double, returning: Bool, plan: RepPlan, skeleton: Skeleton) -> BodyPoints {
        var posture = StandingPosture()
        posture.lean = 2 - plan["swing"] * s
        let arm = StandingPosture.Arm.hanging(
            flexion: lerp(2, plan.values["drift"] ?? 2, s), abduction: 6, elbow: lerp(168, plan.values["elbow"] ?? 168, s),
            wrist: lerp(8, plan.values["wrist"] ?? 8, s))
        posture.arms = [arm, arm]
        posture.legs = [.init(abduction: 6), .init(abduction: 6)]
        return posture.points(skeleton)
    }
}

struct PressMotion: Motion {
    let exercise = "overhead_press"
    let faultRates = ["partial_lockout": 0.3, "back_arch": 0.3, "bent_wrist": 0.3]
    let tempo = 1.5...3.0
    var usesHands: Bool { true }

    func plan(_ random: inout SeededRandom, faulty: Set<String>) -> RepPlan {
        var plan = RepPlan(faults: faulty)
        plan.values["elbow"] = pick(&random, "partial_lockout", in: faulty, good: 170...178, bad: 140...150)
        plan.values["arch"] = pick(&random, "back_arch", in: faulty, good: -3...4, bad: -25...(-19))
        plan.values["wrist"] = pick(&random, "bent_wrist", in: faulty, good: 10...20, bad: 46...58)
        return plan
    }

    func body(progress s: Double, returning: Bool, plan: RepPlan, skeleton: Skeleton) -> BodyPoints {
        var posture = StandingPosture()
        posture.lean = lerp(2, plan.values["arch"] ?? 2, s * s)
        let arm = StandingPosture.Arm.reaching(
            tilt: lerp(65, 4, s), elbow: lerp(75, plan.values["elbow"] ?? 75, s), wrist: lerp(15, plan.values["wrist"] ?? 15, s))
        posture.arms = [arm, arm]
        posture.legs = [.init(abduction: 7), .init(abduction: 7)]
        return posture.points(skeleton)
    }
}

struct JumpingJackMotion: Motion {
    let exercise = "jumping_jack"
    let faultRates = ["partial_rom": 0.35]
    let tempo = 0.7...1.3
    var camera: CameraSetup { .front }

    func plan(_ random: inout SeededRandom, faulty: Set<String>) -> RepPlan {
        var plan = RepPlan(faults: faulty)
        let partial = faulty.contains("partial_rom")
        let arms = partial && random.chance(0.6), legs = partial && !arms || partial && random.chance(0.3)
        plan.values["arms"] = random.uniform(arms ? 118...137 : 164...177)
        plan.values["legs"] = random.uniform(legs ? 3...5.5 : 16...22)
        return plan
    }

    func body(progress s: Double, returning: Bool, plan: RepPlan, skeleton: Skeleton) -> BodyPoints {
        var posture = StandingPosture()
        posture.lean = 2
        let arm = StandingPosture.Arm.hanging(flexion: 0, abduction: lerp(10, plan.values["arms"] ?? 10, s), elbow: 174, wrist: 3)
        posture.arms = [arm, arm]
        let legs = lerp(2.5, plan.values["legs"] ?? 2.5, s)
        posture.legs = [.init(abduction: legs), .init(abduction: legs)]
        return posture.points(skeleton)
    }
}

struct PushUpMotion: Motion {
    let exercise = "pushup"
    let faultRates = ["shallow_depth": 0.3, "hip_sag": 0.2, "hip_pike": 0.2]
    let tempo = 1.3...2.8

    func plan(_ random: inout SeededRandom, faulty: Set<String>) -> RepPlan {
        var faulty = faulty
        if faulty.contains("hip_sag") { faulty.remove("hip_pike") }  // one or the other
        var plan = RepPlan(faults: faulty)
        plan.values["elbow"] = pick(&random, "shallow_depth", in: faulty, good: 72...90, bad: 106...117)
        plan.values["hips"] = faulty.contains("hip_sag") ? random.uniform(-0.28...(-0.2))
            : faulty.contains("hip_pike") ? random.uniform(0.25...0.33) : random.uniform(-0.03...0.03)
        return plan
    }

    func body(progress s: Double, returning: Bool, plan: RepPlan, skeleton: Skeleton) -> BodyPoints {
        // The hips settle into their fault early in the rep and recover late.
        let hips = lerp(0, plan["hips"], min(1, s * 3))
        return PronePosture.pushUp(elbow: lerp(172, plan.values["elbow"] ?? 172, s), hipOffset: hips, skeleton)
    }
}
