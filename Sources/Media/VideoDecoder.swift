internal import CFFmpeg
internal import CFFmpegShims

/// Owns an opened AVCodecContext for one video stream, with frame threading.
final class VideoDecoder {
    let context: UnsafeMutablePointer<AVCodecContext>

    init(stream: UnsafeMutablePointer<AVStream>, threads: Int, name: String) throws {
        let parameters = stream.pointee.codecpar!
        let codecName = String(cString: avcodec_get_name(parameters.pointee.codec_id))
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            let tag = withUnsafeBytes(of: parameters.pointee.codec_tag.littleEndian) { bytes in
                String(bytes.map { (32...126).contains($0) ? Character(UnicodeScalar($0)) : "?" })
            }
            throw MediaError(
                .unsupportedCodec, "\(name): no decoder for the video codec (\(codecName), tag \(tag)) in this build of libav")
        }
        guard let context = avcodec_alloc_context3(codec) else {
            throw MediaError(.unsupportedCodec, "\(name): cannot allocate a \(codecName) decoder")
        }
        var status = avcodec_parameters_to_context(context, parameters)
        if status >= 0 {
            context.pointee.pkt_timebase = stream.pointee.time_base
            context.pointee.thread_count = Int32(threads)
            context.pointee.thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE
            status = LibavLog.capturing { avcodec_open2(context, codec, nil) }
        }
        guard status >= 0 else {
            var freeing: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&freeing)
            throw MediaError(.unsupportedCodec, "\(name): cannot open the \(codecName) decoder", ffmpegCode: status)
                .quotingLibavLog()
        }
        self.context = context
    }

    deinit {
        var freeing: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&freeing)
    }

    /// Sends a packet, or `nil` to drain; returns libav's status.
    func send(_ packet: UnsafeMutablePointer<AVPacket>?) -> Int32 {
        avcodec_send_packet(context, packet)
    }

    /// Forgets every packet and frame in flight, after a seek.
    func flush() {
        avcodec_flush_buffers(context)
    }

    /// Receives the next decoded frame into `frame`; returns libav's status
    /// (AVERROR(EAGAIN) when it needs more input, AVERROR_EOF when drained).
    func receive(into frame: UnsafeMutablePointer<AVFrame>) -> Int32 {
        avcodec_receive_frame(context, frame)
    }
}
