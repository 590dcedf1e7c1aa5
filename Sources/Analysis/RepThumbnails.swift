import Foundation
import LandmarkTracks
import Media

/// Small pictures of a video at given moments — each rep's turn — with the
/// scored person's skeleton drawn from the landmark track, as JPEG.
public enum RepThumbnails {
    /// The pictures' longer side, pixels.
    public static let longSide = 240

    /// A JPEG for each of `times` (milliseconds of the video's own time), in
    /// their order: the decoded frame nearest each time, scaled to `longSide`,
    /// with the skeleton of the track's first pose at the track frame nearest it.
    public static func make(video path: String, track: LandmarkTrack, at times: [Int]) async throws -> [Data] {
        guard !times.isEmpty else { return [] }
        var options = VideoDecodeOptions()
        options.maxLongSide = longSide
        let reader = try await VideoReader.open(path: path, options: options)
        var nearest = [VideoFrame?](repeating: nil, count: times.count)
        let last = times.max() ?? 0
        for try await frame in reader.frames() {
            for (index, time) in times.enumerated() {
                if let kept = nearest[index], abs(kept.timestampMilliseconds - time) <= abs(frame.timestampMilliseconds - time) { continue }
                nearest[index] = frame
            }
            if frame.timestampMilliseconds > last { break }
        }
        return try nearest.enumerated().map { index, frame in
            guard let frame else { throw AnalysisError(.noPicture, "\(path): no frame decoded near \(times[index]) ms") }
            var canvas = SkeletonCanvas(frame: frame)
            if let pose = track.frame(nearest: frame.timestampMilliseconds)?.poses.first { canvas.draw(pose) }
            return try JPEGEncoder.encode(rgb: canvas.pixels, width: frame.width, height: frame.height)
        }
    }
}

extension LandmarkTrack {
    /// The frame whose time is nearest `milliseconds`, among frames with a pose.
    func frame(nearest milliseconds: Int) -> LandmarkTrackFrame? {
        frames.filter { !$0.poses.isEmpty }.min { abs($0.timestampMilliseconds - milliseconds) < abs($1.timestampMilliseconds - milliseconds) }
    }
}
