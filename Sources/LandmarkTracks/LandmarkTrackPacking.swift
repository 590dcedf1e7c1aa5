import Foundation

/// A landmark track packed into bytes, for storing it compactly: every number
/// as the 32-bit float it was, little-endian, so that unpacking gives back the
/// very same track and re-scoring it gives the very same report.
///
/// Layout (`spotter.landmarks/v1+packed`): magic `SPTK`, version 1; the header
/// (fps as float64, width and height as uint32, the source as uint16 length and
/// UTF-8); the frame count (uint32); then per frame its timestamp (int64), the
/// number of poses (uint8), each pose's landmark and world rows, a byte saying
/// whether hands were looked for, and the hands (count, handedness, score, rows).
/// Rows are preceded by their count (uint8) and a byte: 5 numbers each or 3.
public enum LandmarkTrackPacking {
    /// The name stored beside packed bytes.
    public static let name = "spotter.landmarks/v1+packed"
    static let magic: [UInt8] = Array("SPTK".utf8) + [1]

    /// The track as bytes.
    public static func pack(_ track: LandmarkTrack) -> [UInt8] {
        var writer = ByteWriter()
        writer.bytes.append(contentsOf: magic)
        writer.append(track.header.fps.bitPattern)
        writer.append(UInt32(clamping: track.header.width))
        writer.append(UInt32(clamping: track.header.height))
        let source = Array(track.header.source.utf8.prefix(Int(UInt16.max)))
        writer.append(UInt16(source.count))
        writer.bytes.append(contentsOf: source)
        writer.append(UInt32(track.frames.count))
        for frame in track.frames {
            writer.append(Int64(frame.timestampMilliseconds))
            writer.bytes.append(UInt8(clamping: frame.poses.count))
            for pose in frame.poses.prefix(255) {
                writer.appendRows(pose.landmarks)
                writer.appendRows(pose.world)
            }
            writer.bytes.append(frame.hands == nil ? 0 : 1)
            guard let hands = frame.hands else { continue }
            writer.bytes.append(UInt8(clamping: hands.count))
            for hand in hands.prefix(255) {
                let handedness = Array(hand.handedness.utf8.prefix(255))
                writer.bytes.append(UInt8(handedness.count))
                writer.bytes.append(contentsOf: handedness)
                writer.append(hand.score.bitPattern)
                writer.appendRows(hand.landmarks)
                writer.appendRows(hand.world)
            }
        }
        return writer.bytes
    }

    /// The track the bytes hold; throws `TrackError` naming `name` when they are not a packed track.
    public static func unpack(_ bytes: [UInt8], name: String) throws -> LandmarkTrack {
        var reader = ByteReader(bytes: bytes, name: name)
        guard try reader.take(magic.count) == magic[...] else { throw reader.failure("not a packed landmark track") }
        let fps = Double(bitPattern: try reader.read(UInt64.self))
        let width = Int(try reader.read(UInt32.self)), height = Int(try reader.read(UInt32.self))
        let source = String(decoding: try reader.take(Int(try reader.read(UInt16.self))), as: UTF8.self)
        let frameCount = Int(try reader.read(UInt32.self))
        var frames: [LandmarkTrackFrame] = []
        frames.reserveCapacity(min(frameCount, bytes.count / 9))
        for _ in 0..<frameCount {
            let timestamp = Int(try reader.read(Int64.self))
            var poses: [TrackPose] = []
            for _ in 0..<(try reader.read(UInt8.self)) {
                poses.append(TrackPose(landmarks: try reader.readRows(), world: try reader.readRows()))
            }
            var hands: [TrackHand]?
            if try reader.read(UInt8.self) == 1 {
                var found: [TrackHand] = []
                for _ in 0..<(try reader.read(UInt8.self)) {
                    let handedness = String(decoding: try reader.take(Int(try reader.read(UInt8.self))), as: UTF8.self)
                    let score = Float(bitPattern: try reader.read(UInt32.self))
                    found.append(TrackHand(
                        handedness: handedness, score: score, landmarks: try reader.readRows(), world: try reader.readRows()))
                }
                hands = found
            }
            frames.append(LandmarkTrackFrame(timestampMilliseconds: timestamp, poses: poses, hands: hands))
        }
        guard reader.offset == bytes.count else { throw reader.failure("\(bytes.count - reader.offset) bytes after the last frame") }
        return LandmarkTrack(
            header: LandmarkTrackHeader(fps: fps, width: width, height: height, source: source), frames: frames)
    }
}

private struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func appendRows(_ rows: [TrackLandmark]) {
        let full = rows.allSatisfy { $0.visibility != nil && $0.presence != nil }
        bytes.append(UInt8(clamping: rows.count))
        bytes.append(full ? 5 : 3)
        for row in rows.prefix(255) {
            append(row.x.bitPattern)
            append(row.y.bitPattern)
            append(row.z.bitPattern)
            if full {
                append(row.visibility!.bitPattern)
                append(row.presence!.bitPattern)
            }
        }
    }
}

private struct ByteReader {
    let bytes: [UInt8]
    let name: String
    var offset = 0

    init(bytes: [UInt8], name: String) {
        self.bytes = bytes
        self.name = name
    }

    func failure(_ reason: String) -> TrackError {
        TrackError(file: name, line: 0, reason: "\(reason) (at byte \(offset))")
    }

    mutating func take(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count <= bytes.count - offset else { throw failure("the packed track is cut short") }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func read<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        var value = T.zero
        let slice = try take(MemoryLayout<T>.size)
        withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: slice) }
        return T(littleEndian: value)
    }

    mutating func readRows() throws -> [TrackLandmark] {
        let count = Int(try read(UInt8.self)), width = try read(UInt8.self)
        guard width == 3 || width == 5 else { throw failure("a landmark row has 3 or 5 numbers, not \(width)") }
        var rows: [TrackLandmark] = []
        rows.reserveCapacity(count)
        for _ in 0..<count {
            var numbers: [Float] = []
            for _ in 0..<width { numbers.append(Float(bitPattern: try read(UInt32.self))) }
            rows.append(TrackLandmark(
                x: numbers[0], y: numbers[1], z: numbers[2],
                visibility: width == 5 ? numbers[3] : nil, presence: width == 5 ? numbers[4] : nil))
        }
        return rows
    }
}
