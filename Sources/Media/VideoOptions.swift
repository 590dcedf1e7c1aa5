/// Limits checked when a video is opened, before any decoding, so that a huge
/// or absurd upload costs nothing.
public struct MediaLimits: Sendable, Equatable {
    /// Largest input, in bytes. Default 4 GiB.
    public var maxFileBytes: Int64 = 4 << 30
    /// Longest duration. Default one hour.
    public var maxDurationMilliseconds = 3_600_000
    /// Most pixels per frame. Default 8K UHD (7680 × 4320).
    public var maxPixels = 7680 * 4320
    /// Highest average frame rate. Default 480 frames/s (phones film slow motion at 240).
    public var maxFrameRate = 480.0
    /// How long opening and reading may take in all before libav is interrupted. Default 30 minutes.
    public var deadline = Duration.seconds(30 * 60)

    public init() {}
}

/// How a video is decoded for the landmarkers.
public struct VideoDecodeOptions: Sendable, Equatable {
    /// The longest side of the frames handed out, after rotation; larger frames
    /// are scaled down, smaller ones are left alone. `nil` keeps the native size.
    /// Default 1280, plenty for the landmark models (256 px inputs).
    public var maxLongSide: Int? = 1280
    /// Frames per second to hand out, chosen by timestamp; `nil` for every frame.
    public var frameRate: Double?
    /// With no `frameRate`: the most frames per second to hand out. A video
    /// filmed faster is sampled at this rate by timestamp; `nil` for no cap.
    public var maxFrameRate: Double?
    /// Only frames from this time (ms from the start) are converted and handed
    /// out, and decoding stops at its end: one part of a video for one of
    /// several landmarkers. Decoding starts at a key frame before the span
    /// (found by the container's index or libav's search; at the video's start
    /// where no seek lands in time), and the frames handed out are exactly
    /// those a whole pass hands out within the span. `nil`: all of it.
    public var span: Range<Int>?
    /// Decoder threads; 0 lets libav choose (one per core).
    public var decoderThreads = 0
    /// Frames decoded ahead of the consumer before decoding waits.
    public var bufferedFrames = 4
    public var limits = MediaLimits()

    public init() {}
}
