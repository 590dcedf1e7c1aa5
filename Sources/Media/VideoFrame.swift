/// A decoded frame, upright and in packed RGB, ready for the landmarkers.
public struct VideoFrame: Sendable {
    /// Milliseconds from the start of the stream; strictly increasing frame to frame.
    public var timestampMilliseconds: Int
    public var width: Int
    public var height: Int
    /// `width × height × 3` bytes: red, green, blue, row after row.
    public var pixels: [UInt8]
}

/// How a decode went, complete once the frames have run out.
public struct DecodeReport: Sendable, Equatable {
    /// Frames the decoder produced, and how many of them were handed out.
    public var framesDecoded = 0
    public var framesDelivered = 0
    /// Packets or frames the decoder rejected as damaged.
    public var decodeErrors = 0
    /// The timestamp of the last frame handed out.
    public var lastTimestampMilliseconds: Int?
    /// What was lost and why, in words, for the report's warnings.
    public var warnings: [String] = []
}
