import Foundation
import Landmarkers
import TestSupport
import Testing

@Suite("Images from files and pixel buffers")
struct MPImageTests {
    static let poseModel = TestAssets.installation.poseModelPath

    @Test("JPEG and PNG files decode to their size")
    func files() throws {
        let jpeg = try MPImage(contentsOfFile: TestAssets.photo("bus.jpg"))
        #expect(jpeg.width == 810 && jpeg.height == 1080)
        let png = try MPImage(contentsOfFile: TestAssets.photo("astronaut.png"))
        #expect(png.width == 512 && png.height == 512)
    }

    @Test("RGB, RGBA and BGRA buffers and padded rows give the same landmarks as the file")
    func buffers() throws {
        let landmarker = try PoseLandmarker(modelPath: Self.poseModel)
        let reference = try landmarker.detect(image: MPImage(contentsOfFile: TestAssets.photo("bus.jpg"))).landmarks
        let rgb = try TestAssets.decodedPixels("bus.jpg")
        var rgba = [UInt8](), bgra = [UInt8](), padded = [UInt8]()
        let padding = 13
        for y in 0..<rgb.height {
            for x in 0..<rgb.width {
                let pixel = rgb.bytes[((y * rgb.width + x) * 3)..<((y * rgb.width + x) * 3 + 3)]
                rgba += pixel + [255]
                bgra += pixel.reversed() + [255]
                padded += pixel
            }
            padded += [UInt8](repeating: 0xAB, count: padding)
        }
        let images = [
            try MPImage(pixels: rgb.bytes, width: rgb.width, height: rgb.height, format: .rgb),
            try MPImage(pixels: rgba, width: rgb.width, height: rgb.height, format: .rgba),
            try MPImage(pixels: bgra, width: rgb.width, height: rgb.height, format: .bgra),
            try MPImage(
                pixels: padded, width: rgb.width, height: rgb.height, format: .rgb, bytesPerRow: rgb.width * 3 + padding),
        ]
        for image in images {
            #expect(try landmarker.detect(image: image).landmarks == reference)
        }
        #expect(try images[2].copyPixels().pixels == rgba, "BGRA is stored as RGBA")
    }

    @Test("buffers too small for their size, and impossible sizes, are refused")
    func badBuffers() {
        let cases: [(bytes: Int, width: Int, height: Int, bytesPerRow: Int?)] = [
            (bytes: 11, width: 2, height: 2, bytesPerRow: nil),
            (bytes: 12, width: 2, height: 2, bytesPerRow: 5),
            (bytes: 0, width: 0, height: 0, bytesPerRow: nil),
            (bytes: 3, width: 1, height: -1, bytesPerRow: nil),
            (bytes: 3, width: 100_000, height: 1, bytesPerRow: nil),
        ]
        for item in cases {
            let error = #expect(throws: LandmarkerError.self) {
                _ = try MPImage(
                    pixels: [UInt8](repeating: 0, count: item.bytes), width: item.width, height: item.height,
                    format: .rgb, bytesPerRow: item.bytesPerRow)
            }
            #expect(error?.code == .invalidImage, "\(item)")
        }
    }

    @Test("a missing file and a corrupt file are unreadable, naming the file")
    func unreadableFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let truncated = directory.appendingPathComponent("truncated.jpg").path
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: TestAssets.photo("bus.jpg")))
        try jpeg.prefix(jpeg.count / 2).write(to: URL(fileURLWithPath: truncated))
        let truncatedPNG = directory.appendingPathComponent("truncated.png").path
        let png = try Data(contentsOf: URL(fileURLWithPath: TestAssets.photo("astronaut.png")))
        try png.prefix(png.count - 100).write(to: URL(fileURLWithPath: truncatedPNG))
        let noise = directory.appendingPathComponent("noise.png").path
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: URL(fileURLWithPath: noise))
        for path in [directory.appendingPathComponent("absent.jpg").path, truncated, truncatedPNG, noise] {
            let error = #expect(throws: LandmarkerError.self) { _ = try MPImage(contentsOfFile: path) }
            #expect(error?.code == .unreadableImage)
            #expect(error?.message.contains(path) == true)
        }
    }

    @Test("mirrored orientations are refused, as MediaPipe does")
    func mirrored() throws {
        let landmarker = try PoseLandmarker(modelPath: Self.poseModel)
        for orientation in [MPImage.Orientation.upMirrored, .downMirrored, .leftMirrored, .rightMirrored] {
            let image = try MPImage(contentsOfFile: TestAssets.photo("bus.jpg"), orientation: orientation)
            let error = #expect(throws: LandmarkerError.self) { _ = try landmarker.detect(image: image) }
            #expect(error?.code == .invalidImage)
            #expect(error?.message.contains("mirrored") == true)
        }
    }

    /// A hand photographed upright, stored turned a quarter, half or three
    /// quarters counter-clockwise and labelled with the orientation that turns
    /// it back, gives the upright landmarks, reported in the stored frame.
    ///
    /// (Turned three quarters, the photo's hand is found by MediaPipe in no
    /// orientation at all, so `.left` is checked through its rotation below.)
    @Test(
        "orientation rotates the image before inference",
        arguments: [(1, MPImage.Orientation.right), (2, .down)])
    func orientation(quarterTurns: Int, orientation: MPImage.Orientation) throws {
        let landmarker = try HandLandmarker(options: .installed())
        let upright = try TestAssets.decodedPixels("messi5.jpg")
        let reference = try #require(
            try landmarker.detect(image: MPImage(contentsOfFile: TestAssets.photo("messi5.jpg"))).landmarks.first)
        let turned = upright.rotatedCounterClockwise(quarterTurns)
        let image = try MPImage(
            pixels: turned.bytes, width: turned.width, height: turned.height, format: .rgb, orientation: orientation)
        let found = try #require(try landmarker.detect(image: image).landmarks.first)
        for (stored, expected) in zip(found, reference) {
            // Back from the stored frame to the upright one: undo the counter-clockwise turns.
            var (x, y) = (stored.x, stored.y)
            for _ in 0..<quarterTurns { (x, y) = (1 - y, x) }
            #expect(abs(x - expected.x) < 0.03 && abs(y - expected.y) < 0.03, "(\(x), \(y)) vs (\(expected.x), \(expected.y))")
        }
    }
}
