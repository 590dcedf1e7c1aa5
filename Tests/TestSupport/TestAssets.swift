import Foundation
import Landmarkers

/// Files the tests run on, installed by `ops/setup --test-data` (pinned by SHA-256,
/// never committed): the engine, the model bundles and the test photos.
public enum TestAssets {
    /// The engine and models, as the environment names them.
    public static let installation = MediaPipeInstallation.fromEnvironment()

    /// Where the test photos are: `$SPOTTER_TEST_DATA_DIR`, else `testdata` under the cache directory.
    public static let testDataDirectory: String = {
        let environment = ProcessInfo.processInfo.environment
        if let explicit = environment["SPOTTER_TEST_DATA_DIR"], !explicit.isEmpty { return explicit }
        let models = URL(fileURLWithPath: installation.modelDirectory)
        return models.deletingLastPathComponent().appendingPathComponent("testdata").path
    }()

    /// The path of a test photo, such as `bus.jpg`.
    public static func photo(_ name: String) -> String {
        testDataDirectory + "/" + name
    }

    /// A test photo as MediaPipe decodes it, as RGB pixels.
    public static func decodedPixels(_ name: String) throws -> Pixels {
        let image = try MPImage(contentsOfFile: photo(name))
        let (bytes, format) = try image.copyPixels()
        return Pixels(bytes: bytes, width: image.width, height: image.height, channels: format.channels)
    }
}
