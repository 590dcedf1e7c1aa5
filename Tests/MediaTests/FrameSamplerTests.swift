@testable import Media
import Testing

@Suite("Choosing frames by timestamp")
struct FrameSamplerTests {
    func accepted(_ timestamps: [Int], frameRate: Double?) -> [Int] {
        var sampler = FrameSampler(frameRate: frameRate)
        return timestamps.filter { sampler.accept($0) }
    }

    @Test("every frame: only a timestamp that moves forward is handed out")
    func everyFrame() {
        #expect(accepted([0, 33, 33, 67, 50, 100], frameRate: nil) == [0, 33, 67, 100])
    }

    @Test("30 to 15 frames/s keeps every other frame despite millisecond rounding")
    func halving() {
        let thirty = (0..<30).map { Int((Double($0) * 1000 / 30).rounded()) }
        #expect(accepted(thirty, frameRate: 15) == stride(from: 0, to: 30, by: 2).map { thirty[$0] })
    }

    @Test("29.97 to 10 frames/s: one frame per 100 ms point, never two")
    func ntsc() {
        let frames = (0..<300).map { Int((Double($0) * 1001 / 30).rounded()) }
        let kept = accepted(frames, frameRate: 10)
        #expect(kept.count == 100 || kept.count == 101)
        #expect(zip(kept, kept.dropFirst()).allSatisfy { (66...134).contains($1 - $0) })
    }

    @Test("a gap in the source is not filled, and the grid picks up after it")
    func gap() {
        #expect(accepted([0, 100, 200, 900, 1000, 1100], frameRate: 10) == [0, 100, 200, 900, 1000, 1100])
        #expect(accepted([0, 40, 80, 120, 160, 200, 240], frameRate: 10) == [0, 120, 200])
    }

    @Test("a pass that starts part-way chooses a whole pass's frames from its first frame on")
    func startingLater() {
        let frames = (0..<600).map { Int((Double($0) * 1001 / 60).rounded()) }
        let whole = accepted(frames, frameRate: 24)
        for start in [1, 7, 250, 333] {
            let part = accepted(Array(frames[start...]), frameRate: 24)
            #expect(Array(part.dropFirst()) == whole.filter { $0 > part[0] })
        }
    }

    @Test("a rate above the source's keeps every frame")
    func upsampling() {
        #expect(accepted([0, 100, 200, 300], frameRate: 30) == [0, 100, 200, 300])
    }
}

@Suite("Frame sizes and turning upright")
struct FrameGeometryTests {
    @Test("the long side is capped, never enlarged, keeping the aspect ratio")
    func scaling() {
        let full = FrameGeometry(width: 1920, height: 1080, rotation: 90, maxLongSide: 1280)
        #expect(full.scaledWidth == 1280 && full.scaledHeight == 720)
        #expect(full.uprightWidth == 720 && full.uprightHeight == 1280)
        let small = FrameGeometry(width: 640, height: 480, rotation: 0, maxLongSide: 1280)
        #expect(small.scaledWidth == 640 && small.scaledHeight == 480)
        let native = FrameGeometry(width: 3840, height: 2160, rotation: 0, maxLongSide: nil)
        #expect(native.scaledWidth == 3840)
        let sliver = FrameGeometry(width: 4000, height: 1, rotation: 0, maxLongSide: 1000)
        #expect(sliver.scaledWidth == 1000 && sliver.scaledHeight == 1)
    }

    /// A 3×2 image whose pixels carry their own (x, y): pixel (x, y) is [x, y, 7].
    static let stored: [UInt8] = (0..<2).flatMap { y in (0..<3).flatMap { x in [UInt8(x), UInt8(y), 7] } }

    func turned(_ rotation: Int) -> [[UInt8]] {
        let geometry = FrameGeometry(width: 3, height: 2, rotation: rotation, maxLongSide: nil)
        let padded = Self.stored.chunked(3 * 3, padding: 5)
        let pixels = padded.withUnsafeBufferPointer { geometry.packUpright($0.baseAddress!, stride: 3 * 3 + 5) }
        return stride(from: 0, to: pixels.count, by: 3).map { Array(pixels[$0..<($0 + 3)]) }
    }

    @Test("turning clockwise moves each pixel where a viewer expects it")
    func rotations() {
        // Upright: rows of (x, y) labels.
        #expect(turned(0).map { [$0[0], $0[1]] } == [[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1]])
        // 90° clockwise: 2 wide, 3 tall; the stored bottom-left (0, 1) comes to the top-left.
        #expect(turned(90).map { [$0[0], $0[1]] } == [[0, 1], [0, 0], [1, 1], [1, 0], [2, 1], [2, 0]])
        #expect(turned(180).map { [$0[0], $0[1]] } == [[2, 1], [1, 1], [0, 1], [2, 0], [1, 0], [0, 0]])
        #expect(turned(270).map { [$0[0], $0[1]] } == [[2, 0], [2, 1], [1, 0], [1, 1], [0, 0], [0, 1]])
        #expect([0, 90, 180, 270].allSatisfy { turned($0).allSatisfy { $0[2] == 7 } })
    }
}

extension Array where Element == UInt8 {
    /// Rows of `rowBytes`, each followed by `padding` bytes of 0xEE.
    func chunked(_ rowBytes: Int, padding: Int) -> [UInt8] {
        stride(from: 0, to: count, by: rowBytes).flatMap { Array(self[$0..<($0 + rowBytes)]) + Array(repeating: 0xEE, count: padding) }
    }
}
