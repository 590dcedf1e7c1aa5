import Foundation

/// A whole `spotter.landmarks/v1` track.
public struct LandmarkTrack: Sendable, Equatable {
    public var header: LandmarkTrackHeader
    public var frames: [LandmarkTrackFrame]

    public init(header: LandmarkTrackHeader, frames: [LandmarkTrackFrame]) {
        self.header = header
        self.frames = frames
    }
}

extension LandmarkTrack {
    /// Rows in a pose: MediaPipe's 33 landmarks.
    public static let poseRows = 33
    /// Rows in a hand: MediaPipe's 21 landmarks.
    public static let handRows = 21

    /// Reads and checks the track in the file at `path` (see `init(contentsOf:name:)`);
    /// a missing or unreadable file, or one over `maxBytes`, is a `TrackError`
    /// naming it, refused before it is read.
    public init(contentsOfFile path: String, maxBytes: Int = .max) throws {
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > maxBytes {
            throw TrackError(file: path, line: 0, reason: "\(size) bytes is over the limit of \(maxBytes) bytes for a track")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file"
            throw TrackError(file: path, line: 0, reason: reason)
        }
        try self.init(contentsOf: data, name: path)
    }

    /// Reads and checks a track: the header's format and size, every frame's
    /// shape (33 pose rows, 21 hand rows, 3 or 5 finite numbers a row) and
    /// timestamps in increasing order. Errors name the file and the line.
    ///
    /// The header is decoded by `JSONDecoder`; the frames, nearly all of a
    /// track, by `FrameLineParser`, to the same values many times faster.
    public init(contentsOf data: Data, name: String) throws {
        var lineNumber = 0
        var header: LandmarkTrackHeader?
        var frames: [LandmarkTrackFrame] = []
        let decoder = JSONDecoder()
        for lineRange in Self.lineRanges(in: data) {
            lineNumber += 1
            let line = data[lineRange]
            let trimmed = line.last == 0x0D ? line.dropLast() : line
            if trimmed.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            func fail(_ reason: String) -> TrackError { TrackError(file: name, line: lineNumber, reason: reason) }
            do {
                if header == nil {
                    let decoded = try decoder.decode(LandmarkTrackHeader.self, from: trimmed)
                    guard decoded.format == LandmarkTrackHeader.formatIdentifier else {
                        throw fail("format is \"\(decoded.format)\", not \"\(LandmarkTrackHeader.formatIdentifier)\"")
                    }
                    guard decoded.width > 0, decoded.height > 0, decoded.fps >= 0, decoded.fps.isFinite else {
                        throw fail("the header needs a positive width and height and an fps ≥ 0")
                    }
                    header = decoded
                    continue
                }
                let frame = try trimmed.withUnsafeBytes { try FrameLineParser.frame(in: $0) }
                if let previous = frames.last?.timestampMilliseconds, frame.timestampMilliseconds <= previous {
                    throw fail("t_ms \(frame.timestampMilliseconds) does not follow \(previous): frames must be in time order")
                }
                if let problem = frame.shapeProblem { throw fail(problem) }
                frames.append(frame)
            } catch let error as TrackError {
                throw error
            } catch let failure as FrameLineParser.Failure {
                throw fail(failure.reason)
            } catch let error as DecodingError {
                throw fail(Self.describe(headerError: error))
            }
        }
        guard let header else { throw TrackError(file: name, line: 1, reason: "empty track: no header line") }
        self.init(header: header, frames: frames)
    }

    /// Where the lines of `data` are, without their line breaks: what
    /// `data.split(separator: 0x0A, omittingEmptySubsequences: false)` gives,
    /// found with `memchr`, which is many times faster.
    private static func lineRanges(in data: Data) -> [Range<Data.Index>] {
        data.withUnsafeBytes { bytes in
            var ranges: [Range<Data.Index>] = []
            var start = 0
            while start < bytes.count, let base = bytes.baseAddress,
                  let lineBreak = memchr(base + start, 0x0A, bytes.count - start) {
                let end = base.distance(to: UnsafeRawPointer(lineBreak))
                ranges.append(data.startIndex + start..<data.startIndex + end)
                start = end + 1
            }
            ranges.append(data.startIndex + start..<data.endIndex)
            return ranges
        }
    }

    private static func describe(headerError error: DecodingError) -> String {
        let what = "header"
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.isEmpty ? "" : " at \(keys.hasPrefix(".") ? String(keys.dropFirst()) : keys)"
        }
        switch error {
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? "not a JSON object (\(what) line)" : "malformed \(what)\(path(context)): \(context.debugDescription)"
        case .keyNotFound(let key, let context): return "the \(what) has no \"\(key.stringValue)\"\(path(context))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "malformed \(what)\(path(context)): \(context.debugDescription)"
        @unknown default: return "malformed \(what)"
        }
    }
}

extension LandmarkTrackFrame {
    /// What is wrong with the frame's rows, if anything.
    var shapeProblem: String? {
        for (index, pose) in poses.enumerated() {
            if pose.landmarks.count != LandmarkTrack.poseRows || pose.world.count != LandmarkTrack.poseRows {
                return "pose \(index) has \(pose.landmarks.count) landmarks and \(pose.world.count) world rows, not 33 each"
            }
            if !(pose.landmarks + pose.world).allSatisfy(\.isFinite) { return "pose \(index) has a number that is not finite" }
        }
        for (index, hand) in (hands ?? []).enumerated() {
            if hand.landmarks.count != LandmarkTrack.handRows || hand.world.count != LandmarkTrack.handRows {
                return "hand \(index) has \(hand.landmarks.count) landmarks and \(hand.world.count) world rows, not 21 each"
            }
            if !(hand.landmarks + hand.world).allSatisfy(\.isFinite) { return "hand \(index) has a number that is not finite" }
        }
        return nil
    }
}

extension TrackLandmark {
    var isFinite: Bool {
        x.isFinite && y.isFinite && z.isFinite && (visibility?.isFinite ?? true) && (presence?.isFinite ?? true)
    }
}
