/// Checks of a session's truth against its own noise-free kinematics: what the plan
/// set for each turn is there, and every fault label follows its definition with the
/// clean/faulty gap kept (`FaultRule`). Each problem is one line naming the rep.
extension SimulatedSession {
    /// Planned values at each rep's turn not met within `tolerance` (degrees; a hundredth of it for ratios and lengths).
    package func planProblems(tolerance: Double = 0.5) -> [String] {
        var problems: [String] = []
        for (number, rep) in reps.enumerated() {
            let found = kinematics.values(rep.planned.map(\.measure), atMs: rep.turnMs)
            for (plan, value) in zip(rep.planned, found) {
                let allowed = plan.measure.isAngle ? tolerance : tolerance / 100
                if abs(value - plan.value) > allowed {
                    problems.append("rep \(number + 1): \(plan.measure) planned \(plan.value), measured \(value)")
                }
            }
        }
        return problems
    }

    /// Fault labels that disagree with the definitions measured on the true kinematics,
    /// or values left between clearly clean and clearly faulty. Sampled every `stepMs`.
    package func faultProblems(stepMs: Int = 20) -> [String] {
        let rules = FaultBook.rules(exercise)
        var problems: [String] = []
        for (number, rep) in reps.enumerated() {
            var verdicts: [String: [Bool?]] = [:]
            for rule in rules {
                verdicts[rule.code, default: []] += judge(rule, rep, stepMs: stepMs)
            }
            for (code, list) in verdicts.sorted(by: { $0.key < $1.key }) {
                let labelled = rep.faults.contains(code)
                if list.contains(where: { $0 == nil }) {
                    problems.append("rep \(number + 1): \(code) neither clearly clean nor clearly faulty")
                } else if list.contains(true) != labelled {
                    problems.append("rep \(number + 1): \(code) labelled \(labelled), kinematics say \(!labelled)")
                }
            }
            if rep.partial != !rep.faults.isDisjoint(with: FaultBook.rangeCodes) {
                problems.append("rep \(number + 1): partial is \(rep.partial) with faults \(rep.faults.sorted())")
            }
        }
        if let hold { problems += holdProblems(hold, stepMs: stepMs) }
        return problems
    }

    /// One verdict per side: true clearly faulty, false clearly clean, nil in between.
    private func judge(_ rule: FaultRule, _ rep: SimulatedRep, stepMs: Int) -> [Bool?] {
        let measures = rule.measures(rep.sides)
        func verdict(_ value: Double) -> Bool? { rule.isFaulty(value) ? true : rule.isClean(value) ? false : nil }
        switch rule.timing {
        case .atTurn:
            return kinematics.values(measures, atMs: rep.turnMs).map(verdict)
        case .sustained(let ms):
            var runs = [Int](repeating: 0, count: measures.count), longest = runs
            var clean = [Bool](repeating: true, count: measures.count)
            for t in stride(from: rep.startMs, through: rep.endMs, by: stepMs) {
                for (index, value) in kinematics.values(measures, atMs: t).enumerated() {
                    runs[index] = rule.isFaulty(value) ? runs[index] + stepMs : 0
                    longest[index] = max(longest[index], runs[index])
                    clean[index] = clean[index] && rule.isClean(value)
                }
            }
            return zip(longest, clean).map { run, clean in run - stepMs >= Int(ms) ? true : clean ? false : nil }
        case .whenKneePasses(let limit):
            return rep.sides.map { side in
                var faulty = false, clean = true
                for t in stride(from: rep.startMs, through: rep.turnMs, by: stepMs) {
                    let v = kinematics.values([.knee(side), .hip(side)], atMs: t)
                    if v[0] >= limit + rule.faultGap && rule.isFaulty(v[1]) { faulty = true }
                    if v[0] > limit - rule.cleanGap && !rule.isClean(v[1]) { clean = false }
                }
                return faulty ? true : clean ? false : nil
            }
        }
    }

    /// A hold: level enough all through; each fault stretch lasting its time; clean hips a second away from any stretch.
    private func holdProblems(_ hold: SimulatedHold, stepMs: Int) -> [String] {
        var problems: [String] = []
        let rules = FaultBook.rules(exercise)
        for span in hold.spans {
            for t in stride(from: span.lowerBound, to: span.upperBound, by: stepMs) {
                let values = kinematics.values([.bodyLevel, .hipLine], atMs: t)
                if abs(values[0]) > 30 { problems.append("hold at \(t) ms: body \(values[0])° from level") }
                let near = hold.faults.contains { t > $0.startMs - 1000 && t < $0.endMs + 1000 }
                if !near && !rules.allSatisfy({ $0.isClean(values[1]) }) {
                    problems.append("hold at \(t) ms: hips at \(values[1]) torso lengths outside any fault stretch")
                }
            }
        }
        for fault in hold.faults {
            let rule = rules.first { $0.code == fault.code }!
            var run = 0, longest = 0
            for t in stride(from: fault.startMs, through: fault.endMs, by: stepMs) {
                run = rule.isFaulty(kinematics.value(.hipLine, atMs: t)) ? run + stepMs : 0
                longest = max(longest, run)
            }
            if case .sustained(let ms) = rule.timing, longest - stepMs < Int(ms) {
                problems.append("\(fault.code) \(fault.startMs)–\(fault.endMs) ms: beyond its edge for only \(longest) ms")
            }
            if !hold.spans.contains(where: { $0.lowerBound <= fault.startMs && fault.endMs <= $0.upperBound }) {
                problems.append("\(fault.code) \(fault.startMs)–\(fault.endMs) ms: outside the hold")
            }
        }
        return problems
    }
}
