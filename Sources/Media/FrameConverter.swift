internal import CFFmpeg

/// Owns a SwsContext that turns decoded frames into packed RGB of one size,
/// with the frames' own colour matrix and range.
final class FrameConverter {
    let geometry: FrameGeometry
    private var context: OpaquePointer?
    /// Where swscale writes: rows aligned for its vector code, with slack after
    /// the last one, which that code may overrun.
    private let scratch: (pixels: UnsafeMutablePointer<UInt8>, stride: Int)

    init(geometry: FrameGeometry) {
        self.geometry = geometry
        let stride = (geometry.scaledWidth * 3 + 63) / 64 * 64
        let bytes = stride * (geometry.scaledHeight + 1)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        scratch = (memory.initializeMemory(as: UInt8.self, repeating: 0, count: bytes), stride)
    }

    deinit {
        sws_freeContext(context)
        scratch.pixels.deallocate()
    }

    /// The frame as packed RGB, scaled and turned upright.
    func convert(_ frame: UnsafePointer<AVFrame>, name: String) throws -> [UInt8] {
        let source = frame.pointee
        let (format, fullRangeFormat) = Self.unjpeg(AVPixelFormat(rawValue: source.format))
        let (width, height) = (geometry.scaledWidth, geometry.scaledHeight)
        guard let context = sws_getCachedContext(
            context, source.width, source.height, format, Int32(width), Int32(height), AV_PIX_FMT_RGB24,
            SWS_BICUBIC, nil, nil, nil)
        else {
            throw MediaError(.unsupportedCodec, "\(name): cannot convert \(Self.name(of: format)) frames to RGB")
        }
        self.context = context
        let fullRange = fullRangeFormat || source.color_range == AVCOL_RANGE_JPEG
        let coefficients = sws_getCoefficients(Self.swsColorspace(source.colorspace))
        sws_setColorspaceDetails(context, coefficients, fullRange ? 1 : 0, coefficients, 1, 0, 1 << 16, 1 << 16)

        let scaledRows = withUnsafePointer(to: source.data) { data in
            withUnsafePointer(to: source.linesize) { linesize in
                data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { data in
                    linesize.withMemoryRebound(to: Int32.self, capacity: 8) { linesize in
                        var planes: [UnsafeMutablePointer<UInt8>?] = [scratch.pixels, nil, nil, nil]
                        var strides: [Int32] = [Int32(scratch.stride), 0, 0, 0]
                        return sws_scale(context, data, linesize, 0, source.height, &planes, &strides)
                    }
                }
            }
        }
        guard scaledRows == height else {
            throw MediaError(.corrupt, "\(name): converting a frame to RGB failed", ffmpegCode: scaledRows < 0 ? scaledRows : nil)
        }
        return geometry.packUpright(scratch.pixels, stride: scratch.stride)
    }

    /// The non-deprecated twin of a "J" (full-range) pixel format, and whether it was one.
    private static func unjpeg(_ format: AVPixelFormat) -> (AVPixelFormat, Bool) {
        switch format {
        case AV_PIX_FMT_YUVJ420P: (AV_PIX_FMT_YUV420P, true)
        case AV_PIX_FMT_YUVJ422P: (AV_PIX_FMT_YUV422P, true)
        case AV_PIX_FMT_YUVJ444P: (AV_PIX_FMT_YUV444P, true)
        case AV_PIX_FMT_YUVJ440P: (AV_PIX_FMT_YUV440P, true)
        case AV_PIX_FMT_YUVJ411P: (AV_PIX_FMT_YUV411P, true)
        default: (format, false)
        }
    }

    private static func swsColorspace(_ colorspace: AVColorSpace) -> Int32 {
        switch colorspace {
        case AVCOL_SPC_BT709: SWS_CS_ITU709
        case AVCOL_SPC_FCC: SWS_CS_FCC
        case AVCOL_SPC_SMPTE240M: SWS_CS_SMPTE240M
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: SWS_CS_BT2020
        default: SWS_CS_DEFAULT
        }
    }

    static func name(of format: AVPixelFormat) -> String {
        av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "unknown"
    }
}
