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

    /// The longest line a track may have: a frame of several people with
    /// their hands is tens of kilobytes.
    public static let maxLineBytes = 4 << 20

    /// Reads and checks the track in the file at `path` (see `init(contentsOf:name:)`),
    /// streamed: a chunk and the frames read so far are all it holds, never the
    /// file's text whole. A missing or unreadable file, one over `maxBytes`
    /// (refused before it is read when its size is known, else when the limit
    /// is reached) or a line over `maxLineBytes` is a `TrackError` naming it.
    public init(contentsOfFile path: String, maxBytes: Int = .max) throws {
        func fail(_ line: Int, _ reason: String) -> TrackError { TrackError(file: path, line: line, reason: reason) }
        let overLimit = { (size: Int) in fail(0, "\(size) bytes is over the limit of \(maxBytes) bytes for a track") }
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > maxBytes {
            throw overLimit(size)
        }
        guard let file = FileHandle(forReadingAtPath: path) else {
            throw fail(0, FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file")
        }
        defer { try? file.close() }
        var reader = TrackLines(name: path)
        var pending = Data(), read = 0
        while true {
            let chunk: Data
            do {
                chunk = try file.read(upToCount: 1 << 20) ?? Data()
            } catch {
                throw fail(0, "cannot be read")
            }
            read += chunk.count
            if read > maxBytes { throw overLimit(read) }
            if chunk.isEmpty { break }
            pending.append(chunk)
            let lines = Self.lineRanges(in: pending)
            for range in lines.dropLast() { try reader.take(pending[range]) }
            pending.removeSubrange(pending.startIndex..<lines.last!.lowerBound)
            if pending.count > Self.maxLineBytes {
                throw fail(reader.lineNumber + 1, "a line longer than \(Self.maxLineBytes) bytes: not a landmark track")
            }
        }
        try reader.take(pending)
        self = try reader.finish()
    }

    /// Reads and checks a track: the header's format and size, every frame's
    /// shape (33 pose rows, 21 hand rows, 3 or 5 finite numbers a row) and
    /// timestamps in increasing order. Errors name the file and the line.
    public init(contentsOf data: Data, name: String) throws {
        var reader = TrackLines(name: name)
        for lineRange in Self.lineRanges(in: data) { try reader.take(data[lineRange]) }
        self = try reader.finish()
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
}

/// A track read one line at a time: the header, then frames checked as they come.
///
/// The header is decoded by `JSONDecoder`; the frames, nearly all of a track,
/// by `FrameLineParser`, to the same values many times faster.
private struct TrackLines {
    let name: String
    private(set) var lineNumber = 0
    private var header: LandmarkTrackHeader?
    private var frames: [LandmarkTrackFrame] = []
    private let decoder = JSONDecoder()

    init(name: String) {
        self.name = name
    }

    /// Reads the next line, without its line break.
    mutating func take(_ line: Data) throws {
        lineNumber += 1
        let trimmed = line.last == 0x0D ? line.dropLast() : line
        if trimmed.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
        do {
            if header == nil {
                header = try decodeHeader(trimmed)
                return
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
            throw fail(LandmarkTrack.describe(headerError: error))
        }
    }

    /// The track read, or an error when there was no header.
    func finish() throws -> LandmarkTrack {
        guard let header else { throw TrackError(file: name, line: 1, reason: "empty track: no header line") }
        return LandmarkTrack(header: header, frames: frames)
    }

    private func decodeHeader(_ line: Data) throws -> LandmarkTrackHeader {
        let decoded = try decoder.decode(LandmarkTrackHeader.self, from: line)
        guard decoded.format == LandmarkTrackHeader.formatIdentifier else {
            throw fail("format is \"\(decoded.format)\", not \"\(LandmarkTrackHeader.formatIdentifier)\"")
        }
        guard decoded.width > 0, decoded.height > 0, decoded.fps >= 0, decoded.fps.isFinite else {
            throw fail("the header needs a positive width and height and an fps ≥ 0")
        }
        return decoded
    }

    private func fail(_ reason: String) -> TrackError { TrackError(file: name, line: lineNumber, reason: reason) }
}

extension LandmarkTrack {
    static func describe(headerError error: DecodingError) -> String {
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
