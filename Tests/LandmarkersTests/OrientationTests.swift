@testable import Landmarkers
import Testing

@Suite("Orientations map to MediaPipe's clockwise rotation")
struct OrientationTests {
    @Test("upright and quarter turns", arguments: [
        (MPImage.Orientation.up, Int32(0)), (.right, 90), (.down, 180), (.left, 270),
    ])
    func rotation(orientation: MPImage.Orientation, degrees: Int32) throws {
        #expect(try orientation.rotationDegrees() == degrees)
    }

    @Test("mirrored orientations have none", arguments: [
        MPImage.Orientation.upMirrored, .rightMirrored, .downMirrored, .leftMirrored,
    ])
    func mirrored(orientation: MPImage.Orientation) {
        #expect(throws: LandmarkerError.self) { try orientation.rotationDegrees() }
    }
}
