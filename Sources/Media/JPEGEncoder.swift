internal import CFFmpeg
import Foundation

/// Still pictures as JPEG, encoded with libavcodec's MJPEG encoder: a frame's
/// picture for a report (a rep's turn, with the skeleton drawn) small enough
/// to travel inside the page.
public enum JPEGEncoder {
    /// Packed RGB pixels (`width` × `height` × 3 bytes, rows top to bottom) as
    /// a baseline JPEG; `quality` is libav's scale, 2 (best) to 31 (smallest).
    public static func encode(rgb pixels: [UInt8], width: Int, height: Int, quality: Int = 4) throws -> Data {
        guard width > 0, height > 0, width <= 8192, height <= 8192, pixels.count == width * height * 3 else {
            throw MediaError(.invalidDimensions, "a \(width)×\(height) picture needs \(width * height * 3) RGB bytes, not \(pixels.count)")
        }
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_MJPEG) else {
            throw MediaError(.unsupportedCodec, "this build of libavcodec has no MJPEG encoder")
        }
        var context = avcodec_alloc_context3(codec)
        var frame = av_frame_alloc()
        var packet = av_packet_alloc()
        defer {
            avcodec_free_context(&context)
            av_frame_free(&frame)
            av_packet_free(&packet)
        }
        guard let context, let frame, let packet else { throw MediaError(.corrupt, "out of memory for a JPEG encoder") }
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        context.pointee.color_range = AVCOL_RANGE_JPEG
        context.pointee.time_base = AVRational(num: 1, den: 25)
        context.pointee.flags |= AV_CODEC_FLAG_QSCALE
        context.pointee.global_quality = Int32(min(max(quality, 2), 31)) * FF_QP2LAMBDA
        try check(avcodec_open2(context, codec, nil), "opening the JPEG encoder")

        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        frame.pointee.color_range = AVCOL_RANGE_JPEG
        frame.pointee.quality = context.pointee.global_quality
        try check(av_frame_get_buffer(frame, 0), "allocating a picture")
        try toFullRangeYUV(pixels, width: width, height: height, into: frame)

        try check(avcodec_send_frame(context, frame), "encoding a JPEG")
        try check(avcodec_send_frame(context, nil), "finishing a JPEG")
        try check(avcodec_receive_packet(context, packet), "encoding a JPEG")
        defer { av_packet_unref(packet) }
        return Data(bytes: packet.pointee.data, count: Int(packet.pointee.size))
    }

    /// Converts packed RGB into `frame`'s full-range 4:2:0 planes with swscale.
    private static func toFullRangeYUV(_ pixels: [UInt8], width: Int, height: Int, into frame: UnsafeMutablePointer<AVFrame>) throws {
        guard let scaler = sws_getContext(
            Int32(width), Int32(height), AV_PIX_FMT_RGB24, Int32(width), Int32(height), AV_PIX_FMT_YUV420P,
            SWS_BICUBIC, nil, nil, nil)
        else { throw MediaError(.unsupportedCodec, "cannot convert RGB pictures to YUV") }
        defer { sws_freeContext(scaler) }
        let coefficients = sws_getCoefficients(SWS_CS_ITU601)
        sws_setColorspaceDetails(scaler, coefficients, 1, coefficients, 1, 0, 1 << 16, 1 << 16)
        let rows = pixels.withUnsafeBufferPointer { source in
            withUnsafeMutablePointer(to: &frame.pointee.data) { planes in
                withUnsafeMutablePointer(to: &frame.pointee.linesize) { strides in
                    planes.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { planes in
                        strides.withMemoryRebound(to: Int32.self, capacity: 8) { strides in
                            var sourcePlanes: [UnsafePointer<UInt8>?] = [source.baseAddress, nil, nil, nil]
                            var sourceStrides: [Int32] = [Int32(width * 3), 0, 0, 0]
                            return sws_scale(scaler, &sourcePlanes, &sourceStrides, 0, Int32(height), planes, strides)
                        }
                    }
                }
            }
        }
        guard rows == height else { throw MediaError(.corrupt, "converting a picture to YUV failed") }
    }

    private static func check(_ status: Int32, _ what: String) throws {
        guard status >= 0 else { throw MediaError(.corrupt, "\(what) failed", ffmpegCode: status) }
    }
}
