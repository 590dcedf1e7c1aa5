/// What scoring the same session with another rule changes: the rep count
/// (or time held), the faults by code, and the warnings.
public struct ReportDifference: Sendable, Equatable {
    public var repsBefore: Int
    public var repsAfter: Int
    public var holdBefore: Int?
    public var holdAfter: Int?
    /// Fault codes the other rule finds more often, with how many more.
    public var faultsAdded: [String: Int]
    /// Fault codes it finds less often, with how many fewer.
    public var faultsRemoved: [String: Int]
    /// Warnings only the other rule gives, and only the first gave.
    public var warningsAdded: [String]
    public var warningsRemoved: [String]

    public init(from before: SessionReport, to after: SessionReport) {
        (repsBefore, repsAfter) = (before.repCount, after.repCount)
        (holdBefore, holdAfter) = (before.holdMilliseconds, after.holdMilliseconds)
        let old = Self.counts(before.faults.map(\.code)), new = Self.counts(after.faults.map(\.code))
        (faultsAdded, faultsRemoved) = ([:], [:])
        for code in Set(old.keys).union(new.keys) {
            let change = new[code, default: 0] - old[code, default: 0]
            if change > 0 { faultsAdded[code] = change } else if change < 0 { faultsRemoved[code] = -change }
        }
        warningsAdded = after.warnings.filter { !before.warnings.contains($0) }
        warningsRemoved = before.warnings.filter { !after.warnings.contains($0) }
    }

    /// Whether the other rule scores the session as the first did.
    public var isEmpty: Bool {
        repsBefore == repsAfter && holdBefore == holdAfter && faultsAdded.isEmpty && faultsRemoved.isEmpty
            && warningsAdded.isEmpty && warningsRemoved.isEmpty
    }

    /// One line: `reps 5 → 6; faults +shallow_depth×2 −forward_lean; warnings +1 −0`.
    public var summary: String {
        var parts: [String] = []
        if repsBefore != repsAfter { parts.append("reps \(repsBefore) → \(repsAfter)") }
        if holdBefore != holdAfter { parts.append("held \(Self.seconds(holdBefore)) → \(Self.seconds(holdAfter))") }
        let faults = faultsAdded.sorted { $0.key < $1.key }.map { "+\($0.key)\($0.value > 1 ? "×\($0.value)" : "")" }
            + faultsRemoved.sorted { $0.key < $1.key }.map { "−\($0.key)\($0.value > 1 ? "×\($0.value)" : "")" }
        if !faults.isEmpty { parts.append("faults " + faults.joined(separator: " ")) }
        if !warningsAdded.isEmpty || !warningsRemoved.isEmpty {
            parts.append("warnings " + (warningsAdded.map { "+\"\($0)\"" } + warningsRemoved.map { "−\"\($0)\"" }).joined(separator: " "))
        }
        return parts.isEmpty ? "no change" : parts.joined(separator: "; ")
    }

    private static func counts(_ codes: [String]) -> [String: Int] {
        codes.reduce(into: [:]) { $0[$1, default: 0] += 1 }
    }

    private static func seconds(_ milliseconds: Int?) -> String {
        milliseconds.map { "\(Double($0) / 1000) s" } ?? "—"
    }
}
