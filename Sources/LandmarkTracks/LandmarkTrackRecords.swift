import Foundation

/// The first line of a `spotter.landmarks/v1` track (contracts §2).
public struct LandmarkTrackHeader: Decodable, Sendable, Equatable {
    /// The format identifier every track starts with.
    public static let formatIdentifier = "spotter.landmarks/v1"

    public var format: String
    /// Frames per second of the source; 0 for a still image.
    public var fps: Double
    /// Width and height, in pixels, of the upright frames the landmarks refer to.
    public var width: Int
    public var height: Int
    /// The file the track was made from, as given.
    public var source: String

    public init(fps: Double, width: Int, height: Int, source: String) {
        self.format = Self.formatIdentifier
        self.fps = fps
        self.width = width
        self.height = height
        self.source = source
    }
}

/// One frame of a track: every pose and hand found at one timestamp.
public struct LandmarkTrackFrame: Decodable, Sendable, Equatable {
    /// Milliseconds from the start of the source.
    public var timestampMilliseconds: Int
    /// The people found; empty when there was nobody.
    public var poses: [TrackPose]
    /// The hands found, when hands were looked for.
    public var hands: [TrackHand]?

    public init(timestampMilliseconds: Int, poses: [TrackPose], hands: [TrackHand]?) {
        self.timestampMilliseconds = timestampMilliseconds
        self.poses = poses
        self.hands = hands
    }

    enum CodingKeys: String, CodingKey {
        case timestampMilliseconds = "t_ms"
        case poses, hands
    }
}

/// One person: 33 rows in MediaPipe's pose landmark order.
public struct TrackPose: Decodable, Sendable, Equatable {
    /// x and y normalized by the image size, z relative depth.
    public var landmarks: [TrackLandmark]
    /// Metres, origin between the hips, y down.
    public var world: [TrackLandmark]

    public init(landmarks: [TrackLandmark], world: [TrackLandmark]) {
        self.landmarks = landmarks
        self.world = world
    }
}

/// One hand: 21 rows in MediaPipe's hand landmark order.
public struct TrackHand: Decodable, Sendable, Equatable {
    /// "Left" or "Right", as MediaPipe labels it (as if the image were mirrored).
    public var handedness: String
    public var score: Float
    /// x and y normalized by the image size, z relative depth.
    public var landmarks: [TrackLandmark]
    /// Metres, origin at the hand's centre.
    public var world: [TrackLandmark]

    public init(handedness: String, score: Float, landmarks: [TrackLandmark], world: [TrackLandmark]) {
        self.handedness = handedness
        self.score = score
        self.landmarks = landmarks
        self.world = world
    }
}

/// A landmark row: `[x, y, z]`, or `[x, y, z, visibility, presence]` when the
/// model gives those (pose landmarks do, hand landmarks do not).
public struct TrackLandmark: Decodable, Sendable, Equatable {
    public var x: Float
    public var y: Float
    public var z: Float
    public var visibility: Float?
    public var presence: Float?

    public init(x: Float, y: Float, z: Float, visibility: Float? = nil, presence: Float? = nil) {
        self.x = x
        self.y = y
        self.z = z
        self.visibility = visibility
        self.presence = presence
    }

    public init(from decoder: any Decoder) throws {
        var row = try decoder.unkeyedContainer()
        guard let count = row.count, count == 3 || count == 5 else {
            throw DecodingError.dataCorruptedError(
                in: row, debugDescription: "a landmark row has 3 or 5 numbers, not \(row.count ?? 0)")
        }
        x = try row.decode(Float.self)
        y = try row.decode(Float.self)
        z = try row.decode(Float.self)
        if count == 5 {
            visibility = try row.decode(Float.self)
            presence = try row.decode(Float.self)
        }
    }
}

