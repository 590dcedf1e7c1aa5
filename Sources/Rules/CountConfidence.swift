import Foundation

/// How far a session's count (or hold) can be trusted for what the landmarks
/// allow, with the reasons for anything less than high: a pose or the key
/// signal missing in much of the scored time.
struct CountConfidenceCheck {
    /// Below this share of scored frames with a pose (or with the key signal), the count is uncertain…
    static let mediumCoverage = 0.85
    /// …and below this, unreliable.
    static let lowCoverage = 0.6

    let times: [Int]
    let hasPose: [Bool]
    let scored: [Bool]

    /// The confidence the landmarks allow, and why it is not high.
    func assess(key: [Double?], keyName: String) -> (SessionReport.CountConfidence, [String]) {
        let frames = times.indices.filter { scored[$0] }
        guard let first = frames.first, let last = frames.last else {
            return (.low, ["count_uncertain: no frame could be scored"])
        }
        var confidence = SessionReport.CountConfidence.high
        var reasons: [String] = []
        let span = String(format: "between %.1f and %.1f s", Double(times[first]) / 1000, Double(times[last]) / 1000)
        let posed = Double(frames.filter { hasPose[$0] }.count) / Double(frames.count)
        let measured = Double(frames.filter { key[$0] != nil }.count) / Double(frames.count)
        if posed < Self.mediumCoverage {
            confidence = min(confidence, posed < Self.lowCoverage ? .low : .medium)
            reasons.append("count_uncertain: pose found in \(Int((posed * 100).rounded())) % of frames \(span)")
        } else if measured < Self.mediumCoverage {
            confidence = min(confidence, measured < Self.lowCoverage ? .low : .medium)
            reasons.append("count_uncertain: \(keyName) measured in \(Int((measured * 100).rounded())) % of frames \(span)")
        }
        return (confidence, reasons)
    }
}
