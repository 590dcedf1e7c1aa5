/// What a video file holds: container, codec, size, timing and orientation.
public struct VideoStreamInfo: Sendable, Equatable, Encodable {
    /// libav's name of the container format, such as `mov,mp4,m4a,3gp,3g2,mj2`.
    public var container: String
    /// The codec, such as `h264` or `hevc`, and its profile if known.
    public var codec: String
    public var profile: String?
    /// The stored frame size.
    public var width: Int
    public var height: Int
    /// The frame size once turned upright (width and height swap at 90° and 270°).
    public var uprightWidth: Int
    public var uprightHeight: Int
    /// The average frame rate, and libav's guess of the base ("real") rate.
    public var averageFrameRate: Double?
    public var realFrameRate: Double?
    public var durationMilliseconds: Int?
    /// The number of frames, when the container records it.
    public var frameCount: Int?
    /// Clockwise degrees (0, 90, 180, 270) the frames must be turned to stand
    /// upright, from the display-matrix side data.
    public var rotation: Int
    /// The decoded pixel format, such as `yuv420p10le`, and its bits per sample.
    public var pixelFormat: String
    public var bitDepth: Int
    public var bitRate: Int?
    public var fileBytes: Int64?

    enum CodingKeys: String, CodingKey {
        case container, codec, profile, width, height
        case uprightWidth = "upright_width", uprightHeight = "upright_height"
        case averageFrameRate = "fps", realFrameRate = "r_frame_rate"
        case durationMilliseconds = "duration_ms", frameCount = "frames"
        case rotation, pixelFormat = "pix_fmt", bitDepth = "bit_depth", bitRate = "bit_rate"
        case fileBytes = "file_bytes"
    }
}
