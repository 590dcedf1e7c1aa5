import Foundation

/// Writes a track as JSON Lines: the header, then one line per frame, with keys
/// in the order contracts §2 shows them.
///
/// Numbers are written as the shortest decimal that reads back as the same
/// `Float`; a non-finite number, which JSON cannot carry, is written as `null`.
public struct LandmarkTrackWriter {
    private let write: (Data) throws -> Void

    /// Writes the header through `write`, which receives each line with its newline.
    public init(header: LandmarkTrackHeader, write: @escaping (Data) throws -> Void) throws {
        self.write = write
        var line = "{\"format\":"
        line.appendJSONString(header.format)
        line += ",\"fps\":\(header.fps),\"width\":\(header.width),\"height\":\(header.height),\"source\":"
        line.appendJSONString(header.source)
        line += "}\n"
        try write(Data(line.utf8))
    }

    public func append(_ frame: LandmarkTrackFrame) throws {
        var line = "{\"t_ms\":\(frame.timestampMilliseconds),\"poses\":["
        for (index, pose) in frame.poses.enumerated() {
            line += index == 0 ? "{\"landmarks\":" : ",{\"landmarks\":"
            line.appendRows(pose.landmarks)
            line += ",\"world\":"
            line.appendRows(pose.world)
            line += "}"
        }
        line += "]"
        if let hands = frame.hands {
            line += ",\"hands\":["
            for (index, hand) in hands.enumerated() {
                line += index == 0 ? "{\"handedness\":" : ",{\"handedness\":"
                line.appendJSONString(hand.handedness)
                line += ",\"score\":"
                line.appendJSONNumber(hand.score)
                line += ",\"landmarks\":"
                line.appendRows(hand.landmarks)
                line += ",\"world\":"
                line.appendRows(hand.world)
                line += "}"
            }
            line += "]"
        }
        line += "}\n"
        try write(Data(line.utf8))
    }

    /// The whole track as the bytes of a JSON Lines file.
    public static func jsonLines(of track: LandmarkTrack) throws -> Data {
        var data = Data()
        let writer = try LandmarkTrackWriter(header: track.header) { data.append($0) }
        for frame in track.frames { try writer.append(frame) }
        return data
    }
}

extension String {
    fileprivate mutating func appendRows(_ rows: [TrackLandmark]) {
        self += "["
        for (index, row) in rows.enumerated() {
            self += index == 0 ? "[" : ",["
            appendJSONNumber(row.x)
            self += ","
            appendJSONNumber(row.y)
            self += ","
            appendJSONNumber(row.z)
            if row.visibility != nil || row.presence != nil {
                self += ","
                appendJSONNumber(row.visibility ?? 0)
                self += ","
                appendJSONNumber(row.presence ?? 0)
            }
            self += "]"
        }
        self += "]"
    }

    fileprivate mutating func appendJSONNumber(_ value: Float) {
        self += value.isFinite ? value.description : "null"
    }

    fileprivate mutating func appendJSONString(_ value: String) {
        self += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": self += "\\\""
            case "\\": self += "\\\\"
            case "\n": self += "\\n"
            case "\r": self += "\\r"
            case "\t": self += "\\t"
            case _ where scalar.value < 0x20:
                self += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: self.unicodeScalars.append(scalar)
            }
        }
        self += "\""
    }
}
