@testable import Rules
import Testing

@Suite("Rep state machine")
struct RepDetectorTests {
    /// A squat-like rule: rest ≥ 150, active ≤ 125.
    static let squat = RepRule(
        signal: "knee", rest: 150, active: 125, minRange: 35, minDurationMs: 500, maxDurationMs: 10_000, debounceMs: 60,
        maxGapMs: 700, phases: (.eccentric, .concentric), require: [])

    /// 30 frames/s of a signal given as (seconds, value) breakpoints, linearly between.
    static func series(_ points: [(Double, Double?)], fps: Double = 30) -> (times: [Int], values: [Double?]) {
        let end = points.last!.0
        var times: [Int] = [], values: [Double?] = []
        for frame in 0...Int(end * fps) {
            let t = Double(frame) / fps
            times.append(Int((t * 1000).rounded()))
            let next = points.firstIndex { $0.0 >= t } ?? points.count - 1
            let previous = max(0, next - 1)
            let (t0, v0) = points[previous], (t1, v1) = points[next]
            guard let v0, let v1 else { values.append(nil); continue }
            values.append(t1 == t0 ? v1 : v0 + (v1 - v0) * (t - t0) / (t1 - t0))
        }
        return (times, values)
    }

    func reps(_ points: [(Double, Double?)], rule: RepRule = squat) -> [RepSpan] {
        let (times, values) = Self.series(points)
        return RepDetector(rule: rule).detect(times: times, values: values).reps
    }

    @Test("down to the active zone and back is a rep, with its turn at the deepest point")
    func oneRep() throws {
        let (times, values) = Self.series([(0, 175), (1, 175), (2, 80), (2.2, 80), (3.2, 175), (4.5, 175)])
        let found = RepDetector(rule: Self.squat).detect(times: times, values: values).reps
        let rep = try #require(found.first)
        #expect(found.count == 1)
        #expect(abs(times[rep.start] - 1000) <= 34 && abs(times[rep.end] - 3200) <= 34, "\(times[rep.start])–\(times[rep.end])")
        #expect(values[rep.turn]! <= 80.5 && (2000...2200).contains(times[rep.turn]))
    }

    @Test("a rep that misses depth but reaches the active zone still counts")
    func shallowCounts() {
        #expect(reps([(0, 175), (1, 175), (2, 118), (3, 175), (4, 175)]).count == 1)
    }

    @Test("setting up, a half dip, or sway that never reaches the active zone is no rep")
    func partialMovements() {
        #expect(reps([(0, 175), (1, 175), (1.8, 135), (2.6, 175), (3, 170), (3.5, 176), (5, 175)]).isEmpty)
    }

    @Test("noise across a threshold neither makes nor splits reps")
    func noise() {
        var points: [(Double, Double?)] = [(0, 175), (1, 175), (2, 90)]
        // At the bottom, flicker around the rest threshold would be absurd; flicker around active is not.
        for step in 0..<10 { points.append((2.05 + Double(step) * 0.05, step % 2 == 0 ? 126 : 123)) }
        points += [(3, 90), (4, 175), (5, 175)]
        #expect(reps(points).count == 1)
        // Near the rest threshold at the top, between two reps.
        let twice = reps([(0, 175), (1, 175), (2, 90), (3, 152), (3.03, 149), (3.06, 152), (3.5, 175), (4.5, 90), (5.5, 175), (6, 175)])
        #expect(twice.count == 2)
    }

    @Test("too quick, too slow or too little range is no rep")
    func durationsAndRange() {
        #expect(reps([(0, 175), (1, 175), (1.1, 110), (1.2, 175), (2, 175)]).isEmpty, "a 200 ms twitch")
        #expect(reps([(0, 175), (1, 175), (7, 90), (12, 175), (13, 175)]).isEmpty, "11 s is over the maximum")
        var rule = Self.squat
        rule.minRange = 60
        #expect(reps([(0, 160), (1, 160), (2, 120), (3, 160), (4, 160)], rule: rule).isEmpty, "40° of range")
    }

    @Test("a long gap abandons the rep under way and is reported")
    func gaps() {
        let (times, values) = Self.series([(0, 175), (1, 175), (1.5, 120), (1.51, nil), (2.6, nil), (2.61, 150), (3, 175), (4, 175)])
        let result = RepDetector(rule: Self.squat).detect(times: times, values: values)
        #expect(result.reps.isEmpty)
        #expect(result.gaps.count == 1)
    }

    @Test("rising signals count too (a press: rest low, active high)")
    func rising() {
        var press = Self.squat
        press.rest = 100
        press.active = 140
        press.minRange = 45
        #expect(reps([(0, 80), (1, 80), (2, 172), (3, 80), (4, 172), (5, 80), (6, 80)], rule: press).count == 2)
    }

    @Test("reps right after one another are told apart")
    func backToBack() {
        var points: [(Double, Double?)] = [(0, 175), (1, 175)]
        for rep in 0..<5 { points += [(1.5 + Double(rep), 80), (2 + Double(rep), 172)] }
        points.append((7.5, 175))
        #expect(reps(points).count == 5)
    }
}

@Suite("Holds")
struct HoldDetectorTests {
    @Test("short breaks are bridged, short holds ignored")
    func spans() {
        let detector = HoldDetector(rule: HoldRule(conditions: [], minMs: 1000, maxGapMs: 500))
        let times = Array(stride(from: 0, to: 10_000, by: 100))
        var met: [Bool?] = times.map { (1000..<6000).contains($0) ? true : (7000..<7500).contains($0) ? true : false }
        met[30] = false  // 3.0 s: a 100 ms break, bridged
        met[31] = nil
        let spans = detector.detect(times: times, met: met)
        #expect(spans.count == 1)
        #expect(times[spans[0].lowerBound] == 1000 && times[spans[0].upperBound] == 5900)
    }
}
