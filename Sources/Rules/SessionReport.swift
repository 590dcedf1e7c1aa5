import Foundation

/// A session's report, `spotter.report/v1` (contracts §3); a stored report reads back as it was written.
public struct SessionReport: Sendable, Equatable, Codable {
    public static let formatIdentifier = "spotter.report/v1"

    public struct Source: Sendable, Equatable, Codable {
        public var path: String
        public var fps: Double
        public var width: Int
        public var height: Int
        public var durationMilliseconds: Int
        public var frames: Int
        public var framesWithPose: Int

        enum CodingKeys: String, CodingKey {
            case path, fps, width, height, frames
            case durationMilliseconds = "duration_ms", framesWithPose = "frames_with_pose"
        }
    }

    public struct Rep: Sendable, Equatable, Codable {
        public var index: Int
        public var startMilliseconds: Int
        public var bottomMilliseconds: Int
        public var endMilliseconds: Int
        /// Durations in ms, angles in degrees, lengths in torso lengths, ratios as ratios.
        public var metrics: [String: Double]
        public var faults: [String]

        enum CodingKeys: String, CodingKey {
            case index, metrics, faults
            case startMilliseconds = "start_ms", bottomMilliseconds = "bottom_ms", endMilliseconds = "end_ms"
        }
    }

    public struct Fault: Sendable, Equatable, Codable {
        public var code: String
        /// The rep it belongs to, or nil in a hold.
        public var rep: Int?
        public var startMilliseconds: Int
        public var endMilliseconds: Int
        public var severity: String
        public var message: String
        /// The measured value and the limit it broke.
        public var value: Double
        public var limit: Double

        enum CodingKeys: String, CodingKey {
            case code, rep, severity, message, value, limit
            case startMilliseconds = "start_ms", endMilliseconds = "end_ms"
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(code, forKey: .code)
            try container.encode(rep, forKey: .rep)  // null in a hold
            try container.encode(startMilliseconds, forKey: .startMilliseconds)
            try container.encode(endMilliseconds, forKey: .endMilliseconds)
            try container.encode(severity, forKey: .severity)
            try container.encode(message, forKey: .message)
            try container.encode(value, forKey: .value)
            try container.encode(limit, forKey: .limit)
        }
    }

    /// A span left out of scoring: nobody there, not in the exercise's position, walking.
    public struct ExcludedSpan: Sendable, Equatable, Codable {
        public var startMilliseconds: Int
        public var endMilliseconds: Int
        /// `no_pose`, `not_exercise` or `setup`.
        public var reason: String

        enum CodingKeys: String, CodingKey {
            case reason
            case startMilliseconds = "start_ms", endMilliseconds = "end_ms"
        }
    }

    /// A fault code that was not judged on some reps (or a hold): the camera's
    /// view there does not show what it measures, or its landmarks were hidden.
    public struct NotJudged: Sendable, Equatable, Codable {
        public enum Reason: String, Sendable, Codable {
            /// Filmed from a view the fault cannot be judged from.
            case view
            /// The landmarks it needs were hidden where it is judged.
            case hidden
        }

        public var code: String
        /// The reps it was not judged on; empty for a hold.
        public var reps: [Int]
        public var reason: Reason
        /// The views it needs (for `view`).
        public var needs: [CameraView]

        public init(code: String, reps: [Int], reason: Reason, needs: [CameraView]) {
            self.code = code
            self.reps = reps
            self.reason = reason
            self.needs = needs
        }
    }

    /// How far the rep count (or hold) can be trusted; the reasons for less than high are in `warnings`.
    public enum CountConfidence: String, Sendable, Equatable, Codable, Comparable {
        case low, medium, high

        public static func < (a: Self, b: Self) -> Bool {
            let order: [Self] = [.low, .medium, .high]
            return order.firstIndex(of: a)! < order.firstIndex(of: b)!
        }
    }

    public var format = Self.formatIdentifier
    public var exercise: String
    public var rulesVersion: String
    public var source: Source
    public var repCount: Int
    public var reps: [Rep]
    public var faults: [Fault]
    /// Time held in position (holds), nil for exercises counted in reps.
    public var holdMilliseconds: Int?
    public var warnings: [String]
    /// The camera view found (the most common over the scored frames); nil when nobody was seen.
    public var view: CameraView?
    public var countConfidence: CountConfidence
    /// The spans left out of scoring, in time order.
    public var excluded: [ExcludedSpan]
    /// Fault codes not judged where the view did not allow it (also said in `warnings`).
    public var notJudged: [NotJudged]

    enum CodingKeys: String, CodingKey {
        case format, exercise, source, reps, faults, warnings, view, excluded
        case rulesVersion = "rules_version", repCount = "rep_count", holdMilliseconds = "hold_ms"
        case countConfidence = "count_confidence", notJudged = "not_judged"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(format, forKey: .format)
        try container.encode(exercise, forKey: .exercise)
        try container.encode(rulesVersion, forKey: .rulesVersion)
        try container.encode(source, forKey: .source)
        try container.encode(repCount, forKey: .repCount)
        try container.encode(reps, forKey: .reps)
        try container.encode(faults, forKey: .faults)
        try container.encode(holdMilliseconds, forKey: .holdMilliseconds)  // null for rep exercises
        try container.encode(warnings, forKey: .warnings)
        try container.encode(view, forKey: .view)  // null when nobody was seen
        try container.encode(countConfidence, forKey: .countConfidence)
        try container.encode(excluded, forKey: .excluded)
        try container.encode(notJudged, forKey: .notJudged)
    }
}

extension SessionReport {
    /// The report as JSON, keys sorted so that the same report always gives the same bytes.
    public func jsonData(pretty: Bool = true) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        // The scorer only reports finite numbers; should one slip through, it is
        // spelled out rather than failing, so encoding cannot throw.
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return try! encoder.encode(self)
    }

    /// Reads a report written by `jsonData`; a document of another format is an error.
    public static func decode(_ data: Data) throws -> SessionReport {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        let report = try decoder.decode(SessionReport.self, from: data)
        guard report.format == formatIdentifier else {
            throw DecodingError.dataCorrupted(.init(codingPath: [CodingKeys.format], debugDescription: "not a \(formatIdentifier) report: \(report.format)"))
        }
        return report
    }
}
