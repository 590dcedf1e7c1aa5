/// Reads a frame line of a `spotter.landmarks/v1` track (contracts §2) straight
/// from its bytes, to the `LandmarkTrackFrame` that `JSONDecoder` would give.
///
/// The parser follows the frame's schema and takes any JSON layout of it: keys
/// in any order, whitespace, extra keys with any value, `"hands"` null or
/// absent, string escapes, numbers in any JSON notation. As with `JSONDecoder`,
/// numbers are converted by `strtof`, a number too large or too small for a
/// `Float` is refused, `t_ms` may be written `33.0`, and a key given twice
/// counts the first time.
struct FrameLineParser {
    typealias Failure = JSONCursor.Failure

    private var json: JSONCursor

    /// Reads a line holding one frame, without its line break.
    static func frame(in line: UnsafeRawBufferPointer) throws(Failure) -> LandmarkTrackFrame {
        var parser = FrameLineParser(json: JSONCursor(line))
        parser.json.skipWhitespace()
        let frame = try parser.frame()
        parser.json.skipWhitespace()
        guard parser.json.isAtEnd else { throw parser.json.expected("the end of the line") }
        return frame
    }

    private mutating func frame() throws(Failure) -> LandmarkTrackFrame {
        var timestamp: Int?
        var poses: [TrackPose]?
        var hands: [TrackHand]?
        var handsRead = false
        var key = try json.firstKey()
        while let name = key {
            if timestamp == nil, json.key(name, is: "t_ms") {
                timestamp = try json.integer("t_ms")
            } else if poses == nil, json.key(name, is: "poses") {
                var list: [TrackPose] = []
                try json.openArray()
                while try json.hasElement(at: list.count) { list.append(try pose(list.count)) }
                poses = list
            } else if !handsRead, json.key(name, is: "hands") {
                handsRead = true
                if !json.readNull() {
                    var list: [TrackHand] = []
                    try json.openArray()
                    while try json.hasElement(at: list.count) { list.append(try hand(list.count)) }
                    hands = list
                }
            } else {
                try json.skipValue()
            }
            key = try json.nextKey()
        }
        guard let timestamp else { throw Self.missing("t_ms") }
        guard let poses else { throw Self.missing("poses") }
        return LandmarkTrackFrame(timestampMilliseconds: timestamp, poses: poses, hands: hands)
    }

    private mutating func pose(_ index: Int) throws(Failure) -> TrackPose {
        var landmarks: [TrackLandmark]?
        var world: [TrackLandmark]?
        var key = try json.firstKey()
        while let name = key {
            if landmarks == nil, json.key(name, is: "landmarks") {
                landmarks = try rows()
            } else if world == nil, json.key(name, is: "world") {
                world = try rows()
            } else {
                try json.skipValue()
            }
            key = try json.nextKey()
        }
        guard let landmarks else { throw Self.missing("landmarks", at: "poses[\(index)]") }
        guard let world else { throw Self.missing("world", at: "poses[\(index)]") }
        return TrackPose(landmarks: landmarks, world: world)
    }

    private mutating func hand(_ index: Int) throws(Failure) -> TrackHand {
        var handedness: String?
        var score: Float?
        var landmarks: [TrackLandmark]?
        var world: [TrackLandmark]?
        var key = try json.firstKey()
        while let name = key {
            if handedness == nil, json.key(name, is: "handedness") {
                handedness = try json.text()
            } else if score == nil, json.key(name, is: "score") {
                score = try json.float()
            } else if landmarks == nil, json.key(name, is: "landmarks") {
                landmarks = try rows()
            } else if world == nil, json.key(name, is: "world") {
                world = try rows()
            } else {
                try json.skipValue()
            }
            key = try json.nextKey()
        }
        guard let handedness else { throw Self.missing("handedness", at: "hands[\(index)]") }
        guard let score else { throw Self.missing("score", at: "hands[\(index)]") }
        guard let landmarks else { throw Self.missing("landmarks", at: "hands[\(index)]") }
        guard let world else { throw Self.missing("world", at: "hands[\(index)]") }
        return TrackHand(handedness: handedness, score: score, landmarks: landmarks, world: world)
    }

    private mutating func rows() throws(Failure) -> [TrackLandmark] {
        var rows: [TrackLandmark] = []
        rows.reserveCapacity(LandmarkTrack.poseRows)
        try json.openArray()
        while try json.hasElement(at: rows.count) { rows.append(try row()) }
        return rows
    }

    /// Reads `[x, y, z]` or `[x, y, z, visibility, presence]`.
    private mutating func row() throws(Failure) -> TrackLandmark {
        let start = json.position
        var row = TrackLandmark(x: 0, y: 0, z: 0)
        var count = 0
        try json.openArray()
        while try json.hasElement(at: count) {
            switch count {
            case 0: row.x = try json.float()
            case 1: row.y = try json.float()
            case 2: row.z = try json.float()
            case 3: row.visibility = try json.float()
            case 4: row.presence = try json.float()
            default: try json.skipValue()
            }
            count += 1
        }
        guard count == 3 || count == 5 else {
            throw json.malformed(at: start, "a landmark row has 3 or 5 numbers, not \(count)")
        }
        return row
    }

    private static func missing(_ key: String, at path: String? = nil) -> Failure {
        Failure(reason: "the frame has no \"\(key)\"" + (path.map { " at \($0)" } ?? ""))
    }
}
