import Foundation
import Media
import Testing
import TestSupport

/// Still pictures encoded with libavcodec's MJPEG encoder, read back by ffmpeg.
@Suite("JPEG pictures")
struct JPEGEncoderTests {
    @Test("a picture encoded as JPEG reads back at its size with its colours")
    func roundTrip() throws {
        let (width, height) = (96, 64)
        var pixels = [UInt8]()
        for _ in 0..<height {
            for x in 0..<width { pixels += x < width / 2 ? [220, 40, 40] : [30, 60, 200] }
        }
        let jpeg = try JPEGEncoder.encode(rgb: pixels, width: width, height: height)
        #expect(jpeg.prefix(3) == Data([0xff, 0xd8, 0xff]), "a JPEG's start of image")
        #expect(jpeg.count < pixels.count / 4, "compressed: \(jpeg.count) bytes")
        let decoded = try Pixels(picture: jpeg, width: width, height: height)
        #expect(decoded.matches(20, 32, 0xdc2828, tolerance: 16) && decoded.matches(76, 32, 0x1e3cc8, tolerance: 16))
    }

    @Test("pixels that do not make up the size given are refused")
    func wrongSize() {
        let error = #expect(throws: MediaError.self) { try JPEGEncoder.encode(rgb: [0, 0, 0], width: 2, height: 2) }
        #expect(error?.message == "a 2×2 picture needs 12 RGB bytes, not 3")
        #expect(throws: MediaError.self) { try JPEGEncoder.encode(rgb: [], width: 0, height: 0) }
    }
}
