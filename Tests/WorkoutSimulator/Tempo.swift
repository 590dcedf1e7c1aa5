import Foundation

/// Where a moment falls in a rep: `u` runs 0 (rest) → 1 (the turn) → 0, eased;
/// `phase` runs 0 → 1 within the way out and again within the way back.
struct RepState: Sendable {
    var u: Double
    var outbound: Bool
    var phase: Double

    static let rest = RepState(u: 0, outbound: true, phase: 0)
}

/// When one rep happens, in seconds: it leaves rest at `start`, arrives at the
/// turn at `arrive`, stays until `leave` (a pause at the bottom, or the top of a
/// curl), and is back at rest at `end`. The truth's turn is the middle of the pause.
struct RepTiming: Sendable {
    var start: Double, arrive: Double, leave: Double, end: Double

    var turn: Double { (arrive + leave) / 2 }

    func state(at t: Double) -> RepState {
        func ease(_ x: Double) -> Double { 0.5 - 0.5 * cos(.pi * clamp(x, 0, 1)) }
        if t <= start || t >= end { return .rest }
        if t < arrive {
            let x = (t - start) / (arrive - start)
            return RepState(u: ease(x), outbound: true, phase: x)
        }
        if t <= leave { return RepState(u: 1, outbound: true, phase: 1) }
        let x = (t - leave) / (end - leave)
        return RepState(u: 1 - ease(x), outbound: false, phase: x)
    }

    func delayed(by seconds: Double) -> RepTiming {
        RepTiming(start: start + seconds, arrive: arrive + seconds, leave: leave + seconds, end: end + seconds)
    }
}

/// How a set is paced: seconds per rep (out and back, pauses aside), the share
/// spent on the way out, and pauses at the turn and between reps; each rep varies around these.
struct Tempo: Sendable {
    var repSeconds: Double
    var outShare: Double
    var turnPause: Double
    var restPause: Double

    static func draw(_ exercise: String, _ random: inout SimRandom) -> Tempo {
        let jacks = exercise == "jumping_jack"
        let seconds = jacks ? random.logUniform(0.5, 1.6) : random.logUniform(0.7, 6.0)
        let turn = random.chance(jacks ? 0.8 : 0.55) ? 0 : (jacks ? random.uniform(0.05, 0.2) : random.logUniform(0.1, 2.0))
        let rest = random.chance(jacks ? 0.7 : 0.35) ? 0 : (jacks ? random.uniform(0.05, 0.3) : random.logUniform(0.1, 2.0))
        return Tempo(repSeconds: seconds, outShare: random.uniform(0.35, 0.6), turnPause: turn, restPause: rest)
    }

    /// The next rep's timing, starting at `start`, with its own variation.
    func rep(startingAt start: Double, _ random: inout SimRandom) -> RepTiming {
        let seconds = repSeconds * random.uniform(0.88, 1.12)
        let out = seconds * clamp(outShare + random.uniform(-0.05, 0.05), 0.3, 0.65)
        let pause = turnPause * random.uniform(0.6, 1.4)
        return RepTiming(start: start, arrive: start + out, leave: start + out + pause, end: start + seconds + pause)
    }

    /// The rest before the next rep.
    func gap(_ random: inout SimRandom) -> Double { restPause * random.uniform(0.6, 1.4) }

    var summary: String {
        let pace = switch repSeconds {
        case ..<1.0: "explosive"
        case ..<1.8: "fast"
        case ..<3.2: "moderate"
        case ..<4.5: "slow"
        default: "very slow"
        }
        return String(format: "tempo %.1f s/rep (%@), pauses %.1f s at the turn and %.1f s between reps",
                      repSeconds, pace, turnPause, restPause)
    }
}
