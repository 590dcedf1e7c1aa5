/// How prone one set is to each fault: most sets never show a fault, some show
/// it now and then, some nearly every rep.
struct FaultOdds: Sendable {
    private var odds: [String: Double] = [:]

    init(_ codes: Set<String>, _ random: inout SimRandom) {
        for code in codes.sorted() {
            odds[code] = random.weighted([(0.0, 0.5), (0.3, 0.3), (0.85, 0.2)])
        }
    }

    /// Whether the next rep shows this fault.
    func draw(_ code: String, _ random: inout SimRandom) -> Bool { random.chance(odds[code] ?? 0) }
}
