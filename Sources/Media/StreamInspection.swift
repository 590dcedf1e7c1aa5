internal import CFFmpeg

/// Reading a stream's description from libav, and checking it against limits.
extension VideoReader {
    static func describe(_ demuxer: Demuxer, fileBytes: Int64?) -> VideoStreamInfo {
        let context = demuxer.context.pointee
        let stream = demuxer.videoStream.pointee
        let parameters = stream.codecpar.pointee
        let rotation = rotationOf(demuxer.videoStream)
        let format = AVPixelFormat(rawValue: parameters.format)
        let depth = av_pix_fmt_desc_get(format).map { Int($0.pointee.comp.0.depth) } ?? 8
        var duration: Int?
        if stream.duration > 0 {
            duration = Int(av_rescale_q(stream.duration, stream.time_base, AVRational(num: 1, den: 1000)))
        } else if context.duration > 0 {
            duration = Int(context.duration / 1000)  // AV_TIME_BASE is microseconds
        }
        let (width, height) = (Int(parameters.width), Int(parameters.height))
        return VideoStreamInfo(
            container: String(cString: context.iformat.pointee.name),
            codec: String(cString: avcodec_get_name(parameters.codec_id)),
            profile: avcodec_profile_name(parameters.codec_id, parameters.profile).map { String(cString: $0) },
            width: width, height: height,
            uprightWidth: rotation % 180 == 0 ? width : height, uprightHeight: rotation % 180 == 0 ? height : width,
            averageFrameRate: stream.avg_frame_rate.positiveValue, realFrameRate: stream.r_frame_rate.positiveValue,
            durationMilliseconds: duration, frameCount: stream.nb_frames > 0 ? Int(stream.nb_frames) : nil,
            rotation: rotation, pixelFormat: FrameConverter.name(of: format), bitDepth: depth,
            bitRate: parameters.bit_rate > 0 ? Int(parameters.bit_rate) : nil, fileBytes: fileBytes)
    }

    /// Clockwise degrees to turn the frames upright, from the display matrix:
    /// the matrix rotates counter-clockwise by `av_display_rotation_get`.
    static func rotationOf(_ stream: UnsafeMutablePointer<AVStream>) -> Int {
        guard let matrix = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, nil) else { return 0 }
        let counterClockwise = matrix.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_get($0) }
        guard counterClockwise.isFinite else { return 0 }
        let clockwise = Int((-counterClockwise).rounded())
        return ((clockwise % 360) + 360) % 360 / 90 * 90
    }

    static func check(_ info: VideoStreamInfo, against limits: MediaLimits, name: String) throws {
        guard info.width > 0, info.height > 0 else {
            throw MediaError(.invalidDimensions, "\(name): the video has no frame size (\(info.width)×\(info.height))")
        }
        guard info.width <= 16384, info.height <= 16384 else {
            throw MediaError(.invalidDimensions, "\(name): an absurd frame size of \(info.width)×\(info.height)")
        }
        if info.width * info.height > limits.maxPixels {
            throw MediaError(
                .limitExceeded, "\(name): \(info.width)×\(info.height) frames are over the limit of \(limits.maxPixels) pixels")
        }
        if let duration = info.durationMilliseconds, duration > limits.maxDurationMilliseconds {
            throw MediaError(
                .limitExceeded,
                "\(name): \(duration / 1000) s is longer than the limit of \(limits.maxDurationMilliseconds / 1000) s")
        }
        if let rate = info.averageFrameRate, rate > limits.maxFrameRate {
            throw MediaError(
                .limitExceeded, "\(name): \(rate) frames/s is over the limit of \(limits.maxFrameRate) frames/s")
        }
    }
}
