#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import LandmarkTracks

/// A rep the generator made, with the faults it put in it.
public struct TrueRep: Sendable {
    public var startMilliseconds: Int
    public var endMilliseconds: Int
    public var faults: Set<String>
}

/// A fault episode in a hold.
public struct TrueSpan: Sendable {
    public var code: String
    public var startMilliseconds: Int
    public var endMilliseconds: Int
}

/// How a synthetic set is filmed and performed.
public struct SetConditions: Sendable, CustomStringConvertible {
    public enum Tempo: String, Sendable { case slow, normal, fast }

    public var fps = 30.0
    public var camera: CameraSetup?
    public var tempo = Tempo.normal
    /// The far side hidden: visibility 0.05–0.35 instead of 0.55–0.85.
    public var hiddenFarSide = false
    /// Landmark noise, metres.
    public var noise = 0.015
    public var reps = 6
    /// No reps at all: standing about, setting up, small movements.
    public var idle = false
    /// Deadlifts only: single-leg Romanian deadlifts, the free leg rising behind.
    public var singleLeg = false

    public init() {}

    public var description: String {
        "\(idle ? "idle" : "\(reps) reps") \(tempo.rawValue) \(Int(fps)) fps \(camera?.rawValue ?? "default") view"
            + "\(hiddenFarSide ? " far side hidden" : "") noise \(Int(noise * 1000)) mm"
    }
}

/// A generated session: its track, and the truth to score it against.
public struct SyntheticSet: Sendable {
    public var exercise: String
    public var conditions: SetConditions
    public var camera: CameraSetup
    public var track: LandmarkTrack
    public var reps: [TrueRep]
    /// For holds: the time held, and the fault episodes.
    public var holdMilliseconds: Int?
    public var faultSpans: [TrueSpan]
}

/// Synthetic workout sessions: a body with realistic segment lengths driven
/// through an exercise with known joint angles and injected faults, filmed by a
/// camera with MediaPipe's noise, hidden far side, dropped frames and mirrored handedness.
public enum SyntheticSessions {
    /// The exercises the generator knows.
    public static let exercises = [
        "squat", "pushup", "bicep_curl", "lunge", "overhead_press", "jumping_jack", "deadlift", "plank",
    ]

    static func motion(_ exercise: String) -> (any Motion)? {
        switch exercise {
        case "squat": SquatMotion()
        case "pushup": PushUpMotion()
        case "bicep_curl": CurlMotion()
        case "lunge": LungeMotion()
        case "overhead_press": PressMotion()
        case "jumping_jack": JumpingJackMotion()
        case "deadlift": DeadliftMotion()
        default: nil
        }
    }

    public static func make(_ exercise: String, _ conditions: SetConditions, seed: UInt64) -> SyntheticSet {
        var random = SeededRandom(seed: seed)
        let skeleton = Skeleton(scale: random.uniform(0.88...1.1))
        if exercise == "plank" { return plank(conditions, skeleton, &random) }
        let motion = exercise == "deadlift" && conditions.singleLeg ? SingleLegDeadliftMotion() : motion(exercise)!
        let camera = conditions.camera ?? motion.camera
        var timeline = Timeline()
        // Setting up: standing about, with a dip or two that must not count.
        if exercise == "deadlift" {
            timeline.append(random.uniform(0.8...1.5)) { _ in .pose(1, returning: false, plan: standingPlan) }
            timeline.move(from: 1, to: 0, over: 1.4, plan: standingPlan)
        } else {
            timeline.rest(random.uniform(1.0...2.0), random: &random)
            if conditions.idle || random.chance(0.5) { timeline.dips(random.chance(0.5) ? 2 : 1, &random) }
        }
        var reps: [TrueRep] = []
        if conditions.idle {
            timeline.rest(random.uniform(2...4), random: &random)
            timeline.dips(3, &random)
        } else {
            let tempoScale = conditions.tempo == .slow ? 1.6 : conditions.tempo == .fast ? 0.65 : 1
            for _ in 0..<conditions.reps {
                let faulty = Set(motion.faultRates.sorted { $0.key < $1.key }.filter { random.chance($0.value) }.map(\.key))
                let plan = motion.plan(&random, faulty: faulty)
                let duration = random.uniform(motion.tempo) * tempoScale
                let start = timeline.duration
                timeline.rep(plan, duration: duration, pause: random.uniform(0...0.25), random: &random)
                reps.append(TrueRep(
                    startMilliseconds: Int(start * 1000), endMilliseconds: Int(timeline.duration * 1000), faults: plan.faults))
                timeline.rest(random.uniform(exercise == "jumping_jack" ? 0...0.15 : 0.25...1.4), random: &random)
            }
        }
        if exercise == "deadlift" {
            timeline.move(from: 0, to: 1, over: 1.4, plan: standingPlan)
            timeline.append(1) { _ in .pose(1, returning: false, plan: standingPlan) }
        } else {
            timeline.rest(1, random: &random)
        }
        let rest = motion.rest(skeleton)
        let target = (rest.pose[23] + rest.pose[24]) / 2
        let renderer = Renderer(
            camera: Camera(setup: camera, target: target, distance: random.uniform(3.2...3.8)), noise: conditions.noise,
            farVisibility: conditions.hiddenFarSide ? 0.05...0.35 : 0.55...0.85)
        let track = timeline.render(conditions: conditions, random: &random, renderer: renderer, hands: motion.usesHands) { state in
            switch state {
            case .pose(let progress, let returning, let plan): motion.body(progress: progress, returning: returning, plan: plan, skeleton: skeleton)
            case .points(let points): points
            }
        }
        return SyntheticSet(
            exercise: exercise, conditions: conditions, camera: camera, track: track, reps: reps, holdMilliseconds: nil,
            faultSpans: [])
    }

    /// A deadlifter standing tall without the bar.
    static let standingPlan = RepPlan(values: ["lockout": 176])

    /// A plank: standing, getting down, holding (with sagging and piking spells), getting up.
    static func plank(_ conditions: SetConditions, _ skeleton: Skeleton, _ random: inout SeededRandom) -> SyntheticSet {
        let standing = StandingPosture().points(skeleton)
        var timeline = Timeline()
        timeline.append(random.uniform(1...2)) { _ in .points(standing) }
        var spans: [TrueSpan] = []
        if !conditions.idle {
            let down = 1.5, hold = random.uniform(12...26)
            let episodes = Int(random.uniform(0...3.99))
            var offsets: [(start: Double, end: Double, value: Double, code: String)] = []
            var cursor = random.uniform(1.5...3)
            for _ in 0..<episodes where cursor + 4 < hold {
                let sag = random.chance(0.5)
                let length = random.uniform(1.6...3.8)
                offsets.append((cursor, cursor + length, sag ? random.uniform(-0.28...(-0.2)) : random.uniform(0.25...0.33), sag ? "hip_sag" : "hip_pike"))
                cursor += length + random.uniform(2...4)
            }
            let drift = random.uniform(-0.03...0.03)
            func offset(_ t: Double) -> Double {
                for episode in offsets where t >= episode.start - 0.3 && t <= episode.end + 0.3 {
                    let ramp = min(1, max(0, min(t - (episode.start - 0.3), episode.end + 0.3 - t) / 0.3))
                    return lerp(drift, episode.value, ramp)
                }
                return drift + 0.01 * sin(t * 1.3)
            }
            let plank0 = PronePosture.plank(hipOffset: drift, skeleton)
            timeline.append(down) { t in .points(standing.blended(with: plank0, (1 - cos(.pi * t / down)) / 2)) }
            let holdStart = timeline.duration
            timeline.append(hold) { t in .points(PronePosture.plank(hipOffset: offset(t), skeleton)) }
            timeline.append(down) { t in .points(plank0.blended(with: standing, (1 - cos(.pi * t / down)) / 2)) }
            spans = offsets.map { TrueSpan(code: $0.code, startMilliseconds: Int((holdStart + $0.start) * 1000), endMilliseconds: Int((holdStart + $0.end) * 1000)) }
        } else {
            // Idle: kneeling down part way and standing again, never level.
            let low = StandingPosture(lean: 45, legs: [.init(thigh: 70, shank: -40), .init(thigh: 70, shank: -40)]).points(skeleton)
            timeline.append(2) { t in .points(standing.blended(with: low, (1 - cos(.pi * t)) / 2)) }
        }
        timeline.append(1) { _ in .points(standing) }
        let renderer = Renderer(
            camera: Camera(setup: conditions.camera ?? .left, target: Vector(0.8, 0.3, 0), distance: random.uniform(3.2...3.6)),
            noise: conditions.noise, farVisibility: conditions.hiddenFarSide ? 0.05...0.35 : 0.55...0.85)
        var held = 0
        let track = timeline.render(conditions: conditions, random: &random, renderer: renderer, hands: false) { state in
            if case .points(let points) = state { return points }
            return standing
        }
        // The truth: the time the shoulder–ankle line is within 30° of level (noise free).
        var previous: Int?
        for frame in 0..<Int(timeline.duration * conditions.fps) {
            let t = Double(frame) / conditions.fps
            guard case .points(let points) = timeline.state(at: t) else { continue }
            let line = (points.pose[11] + points.pose[12]) / 2 - (points.pose[27] + points.pose[28]) / 2
            let level = abs(asin(min(1, abs(line.y) / norm(line))) * 180 / .pi)
            let ms = Int((t * 1000).rounded())
            if level < 30, let previous { held += ms - previous }
            previous = level < 30 ? ms : nil
        }
        return SyntheticSet(
            exercise: "plank", conditions: conditions, camera: conditions.camera ?? .left, track: track, reps: [],
            holdMilliseconds: held, faultSpans: spans)
    }
}

/// What the body does over time: segments of rest, reps and transitions.
struct Timeline {
    enum State {
        case pose(Double, returning: Bool, plan: RepPlan)
        case points(BodyPoints)
    }

    private var segments: [(start: Double, length: Double, state: (Double) -> State)] = []
    private(set) var duration = 0.0

    mutating func append(_ length: Double, _ state: @escaping (Double) -> State) {
        segments.append((duration, length, state))
        duration += length
    }

    /// Standing or lying at rest, swaying a little.
    mutating func rest(_ length: Double, random: inout SeededRandom) {
        let phase = random.uniform(0...6), amount = random.uniform(0...0.04)
        append(length) { t in .pose(amount * (1 + sin(t * 2.7 + phase)) / 2, returning: false, plan: RepPlan()) }
    }

    /// Small movements toward a rep that stop well short of it.
    mutating func dips(_ count: Int, _ random: inout SeededRandom) {
        for _ in 0..<count {
            let depth = random.uniform(0.15...0.32), length = random.uniform(0.8...1.6)
            append(length) { t in .pose(depth * (1 - cos(2 * .pi * t / length)) / 2, returning: false, plan: RepPlan()) }
            rest(random.uniform(0.4...1.2), random: &random)
        }
    }

    mutating func rep(_ plan: RepPlan, duration length: Double, pause: Double, random: inout SeededRandom) {
        let first = (length - pause) * random.uniform(0.45...0.58), second = length - pause - first
        append(length) { t in
            if t < first { return .pose((1 - cos(.pi * t / first)) / 2, returning: false, plan: plan) }
            if t < first + pause { return .pose(1, returning: false, plan: plan) }
            return .pose((1 + cos(.pi * (t - first - pause) / second)) / 2, returning: true, plan: plan)
        }
    }

    /// From progress `from` to `to` over `length` seconds.
    mutating func move(from: Double, to: Double, over length: Double, plan: RepPlan) {
        append(length) { t in .pose(lerp(from, to, (1 - cos(.pi * t / length)) / 2), returning: to < from, plan: plan) }
    }

    func state(at time: Double) -> State? {
        guard let segment = segments.last(where: { $0.start <= time }) else { return nil }
        return segment.state(min(time - segment.start, segment.length))
    }

    /// Films the timeline: one frame per 1/fps, a few dropped, some without a person.
    func render(
        conditions: SetConditions, random: inout SeededRandom, renderer: Renderer, hands: Bool,
        body: (State) -> BodyPoints
    ) -> LandmarkTrack {
        var frames: [LandmarkTrackFrame] = []
        let count = Int(duration * conditions.fps)
        // Now and then the detector loses the person for a moment.
        let burst = random.chance(0.3) ? Int(random.uniform(0...Double(count))) : -1000
        let burstLength = Int(random.uniform(0.15...0.35) * conditions.fps)
        for frame in 0..<count {
            if random.chance(0.03) { continue }  // dropped by the decoder's sampling or a glitch
            let t = Double(frame) / conditions.fps
            let ms = Int((t * 1000).rounded())
            guard let state = state(at: t), !random.chance(0.02), !(burst...(burst + burstLength)).contains(frame) else {
                frames.append(LandmarkTrackFrame(timestampMilliseconds: ms, poses: [], hands: hands ? [] : nil))
                continue
            }
            let (pose, handResults) = renderer.render(body(state), hands: hands, random: &random)
            frames.append(LandmarkTrackFrame(timestampMilliseconds: ms, poses: [pose], hands: handResults))
        }
        return LandmarkTrack(
            header: LandmarkTrackHeader(fps: conditions.fps, width: 1280, height: 720, source: "synthetic"), frames: frames)
    }
}
