internal import CMediaPipe
import Foundation

/// An image the landmarkers run on, as MediaPipe's `MPImage`.
///
/// The pixels are copied into a MediaPipe image when the `MPImage` is made and
/// are immutable afterwards; the MediaPipe image is freed with the `MPImage`.
/// Immutability is why this class may be `@unchecked Sendable`.
public final class MPImage: @unchecked Sendable {
    /// Layouts of 8-bit interleaved pixels.
    public enum PixelFormat: Sendable, CaseIterable {
        /// Red, green, blue.
        case rgb
        /// Red, green, blue, alpha (or unused).
        case rgba
        /// Blue, green, red, alpha: the usual layout of iOS camera buffers.
        case bgra

        /// Bytes per pixel.
        public var channels: Int { self == .rgb ? 3 : 4 }
    }

    /// How the stored pixels must be turned for the scene to stand upright, with
    /// the meanings of EXIF and `UIImage.Orientation`. The landmarkers pass the
    /// rotation to MediaPipe through its image-processing options and report
    /// landmarks in the stored image's own frame. MediaPipe takes no mirrored
    /// orientation, and neither do the landmarkers.
    public enum Orientation: Sendable, CaseIterable {
        /// Upright as stored.
        case up
        /// Upright after turning the stored image 90° clockwise (EXIF 6).
        case right
        /// Upright after turning it 180° (EXIF 3).
        case down
        /// Upright after turning it 90° counter-clockwise (EXIF 8).
        case left
        case upMirrored, rightMirrored, downMirrored, leftMirrored

        /// The clockwise rotation MediaPipe applies before inference.
        func rotationDegrees() throws -> Int32 {
            switch self {
            case .up: 0
            case .right: 90
            case .down: 180
            case .left: 270
            case .upMirrored, .rightMirrored, .downMirrored, .leftMirrored:
                throw LandmarkerError(
                    .invalidImage, "mirrored orientation \(self) is not supported by MediaPipe; unmirror the pixels first")
            }
        }
    }

    let engine: MediaPipeEngine
    let pointer: OpaquePointer
    /// Width of the stored pixels.
    public let width: Int
    /// Height of the stored pixels.
    public let height: Int
    /// How the stored pixels must be turned to stand upright.
    public let orientation: Orientation

    private init(engine: MediaPipeEngine, pointer: OpaquePointer, orientation: Orientation) {
        self.engine = engine
        self.pointer = pointer
        self.width = Int(engine.api.pointee.MpImageGetWidth(pointer))
        self.height = Int(engine.api.pointee.MpImageGetHeight(pointer))
        self.orientation = orientation
    }

    deinit {
        engine.api.pointee.MpImageFree(pointer)
    }

    /// Decodes a JPEG or PNG file with MediaPipe's own decoder, which applies EXIF
    /// orientation. A file cut short is refused, not decoded as far as it goes.
    /// `engine` is the installation whose landmarkers will read it (default: the environment's).
    public convenience init(contentsOfFile path: String, orientation: Orientation = .up, engine: MediaPipeEngine? = nil) throws {
        let engine = try engine ?? MediaPipeEngine.fromEnvironment()
        guard let bytes = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file"
            throw LandmarkerError(.unreadableImage, "\(path): \(reason)")
        }
        try ImageFileIntegrity.check(bytes, path: path)
        var image: OpaquePointer?
        try engine.check(.unreadableImage, "\(path): not a readable JPEG or PNG image") { error in
            engine.api.pointee.MpImageCreateFromFile(path, &image, error)
        }
        guard let image else {
            throw LandmarkerError(.unreadableImage, "\(path): MediaPipe returned no image")
        }
        self.init(engine: engine, pointer: image, orientation: orientation)
    }

    /// Copies 8-bit interleaved pixels.
    ///
    /// - Parameters:
    ///   - pixels: at least `bytesPerRow × (height − 1) + width × channels` bytes.
    ///   - bytesPerRow: the row stride; `nil` for rows packed without padding.
    public convenience init(
        pixels: UnsafeRawBufferPointer, width: Int, height: Int, format: PixelFormat,
        bytesPerRow: Int? = nil, orientation: Orientation = .up, engine: MediaPipeEngine? = nil
    ) throws {
        let engine = try engine ?? MediaPipeEngine.fromEnvironment()
        let image = try Self.copy(pixels, width: width, height: height, format: format, bytesPerRow: bytesPerRow, engine: engine)
        self.init(engine: engine, pointer: image, orientation: orientation)
    }

    /// Copies 8-bit interleaved pixels from an array; see the pointer form.
    public convenience init(
        pixels: [UInt8], width: Int, height: Int, format: PixelFormat,
        bytesPerRow: Int? = nil, orientation: Orientation = .up, engine: MediaPipeEngine? = nil
    ) throws {
        let engine = try engine ?? MediaPipeEngine.fromEnvironment()
        let image = try pixels.withUnsafeBytes {
            try Self.copy($0, width: width, height: height, format: format, bytesPerRow: bytesPerRow, engine: engine)
        }
        self.init(engine: engine, pointer: image, orientation: orientation)
    }

    private static func copy(
        _ pixels: UnsafeRawBufferPointer, width: Int, height: Int, format: PixelFormat, bytesPerRow: Int?,
        engine: MediaPipeEngine
    ) throws -> OpaquePointer {
        let rowBytes = width * format.channels
        let stride = bytesPerRow ?? rowBytes
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15 else {
            throw LandmarkerError(.invalidImage, "image size \(width)×\(height) is outside 1…32768 pixels")
        }
        guard stride >= rowBytes, pixels.count >= stride * (height - 1) + rowBytes else {
            throw LandmarkerError(
                .invalidImage,
                "\(pixels.count) bytes cannot hold a \(width)×\(height) \(format) image with \(stride) bytes per row")
        }
        let mediaPipeFormat = format == .rgb ? kMpImageFormatSrgb : kMpImageFormatSrgba
        var image: OpaquePointer?
        func create(_ bytes: UnsafeRawBufferPointer) throws {
            try engine.check(.invalidImage, "MediaPipe refused a \(width)×\(height) \(format) image") { error in
                engine.api.pointee.MpImageCreateFromUint8Data(
                    mediaPipeFormat, Int32(width), Int32(height),
                    bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(rowBytes * height), &image, error)
            }
        }
        // MediaPipe copies rows packed without padding, and takes RGB or RGBA only.
        if stride == rowBytes, format != .bgra {
            try create(pixels)
        } else {
            var rows = [UInt8]()
            rows.reserveCapacity(rowBytes * height)
            for y in 0..<height {
                rows.append(contentsOf: pixels[(y * stride)..<(y * stride + rowBytes)])
            }
            if format == .bgra {
                for offset in Swift.stride(from: 0, to: rows.count, by: 4) { rows.swapAt(offset, offset + 2) }
            }
            try rows.withUnsafeBytes(create)
        }
        guard let image else { throw LandmarkerError(.invalidImage, "MediaPipe returned no image") }
        return image
    }

    /// The stored pixels, rows packed without padding, and their layout (RGB or RGBA).
    public func copyPixels() throws -> (pixels: [UInt8], format: PixelFormat) {
        let api = engine.api.pointee
        let format: PixelFormat = api.MpImageGetFormat(pointer) == kMpImageFormatSrgb ? .rgb : .rgba
        var data: UnsafePointer<UInt8>?
        try engine.check(.invalidImage, "MediaPipe cannot expose the image's pixels") { error in
            api.MpImageDataUint8(pointer, &data, error)
        }
        guard let data else { throw LandmarkerError(.invalidImage, "MediaPipe returned no pixels") }
        // The engine hands out the pixels packed without row padding.
        return (Array(UnsafeBufferPointer(start: data, count: width * height * format.channels)), format)
    }

    /// The image-processing options that carry this image's orientation.
    func processingOptions() throws -> MpImageProcessingOptions {
        var options = MpImageProcessingOptions()
        options.rotation_degrees = try orientation.rotationDegrees()
        return options
    }
}
