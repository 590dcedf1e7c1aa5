import Foundation
import Landmarkers
import TestSupport
import Testing

@Suite("Loading the MediaPipe engine")
struct EngineTests {
    @Test("the installed engine loads once per path")
    func installed() throws {
        let first = try MediaPipeEngine.load(libraryPath: TestAssets.installation.libraryPath)
        let second = try MediaPipeEngine.fromEnvironment()
        #expect(first === second)
        #expect(first.libraryPath == TestAssets.installation.libraryPath)
    }

    @Test("a landmarker runs on the engine its caller gives, and refuses an image made by another")
    func engineFromTheCaller() throws {
        let link = FileManager.default.temporaryDirectory.appendingPathComponent("libmediapipe-\(UUID()).so").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: TestAssets.installation.libraryPath)
        defer { try? FileManager.default.removeItem(atPath: link) }
        let engine = try MediaPipeEngine.load(libraryPath: link)
        #expect(engine !== (try MediaPipeEngine.fromEnvironment()) && engine.libraryPath == link)

        let landmarker = try PoseLandmarker(options: .installed(), engine: engine)
        let own = try MPImage(contentsOfFile: TestAssets.photo("bus.jpg"), engine: engine)
        #expect(!(try landmarker.detect(image: own).landmarks.isEmpty))
        let theEnvironments = try MPImage(contentsOfFile: TestAssets.photo("bus.jpg"))
        let error = #expect(throws: LandmarkerError.self) { try landmarker.detect(image: theEnvironments) }
        #expect(error?.code == .invalidImage && error?.message.contains(link) == true, "\(String(describing: error))")
    }

    @Test("a missing engine is unavailable, with the command that installs it")
    func missing() {
        let error = #expect(throws: LandmarkerError.self) {
            _ = try MediaPipeEngine.load(libraryPath: "/nonexistent/libmediapipe.so")
        }
        #expect(error?.code == .engineUnavailable)
        #expect(error?.message == "MediaPipe engine /nonexistent/libmediapipe.so is missing; run ops/setup to install it")
    }

    @Test("a file that is not a library is unavailable, with the loader's reason")
    func notALibrary() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-library-\(UUID()).so").path
        try Data("not an ELF file".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = #expect(throws: LandmarkerError.self) { _ = try MediaPipeEngine.load(libraryPath: path) }
        #expect(error?.code == .engineUnavailable)
        #expect(error?.message.contains("cannot be loaded") == true && error?.message.contains(path) == true)
    }

    @Test("installation paths follow the environment")
    func installationPaths() {
        let defaults = MediaPipeInstallation.fromEnvironment(["HOME": "/home/coach"])
        #expect(defaults.libraryPath == "/home/coach/.cache/spotter/mediapipe-1.2.2/libmediapipe.so")
        #expect(defaults.poseModelPath == "/home/coach/.cache/spotter/models/pose_landmarker_full.task")
        #expect(defaults.handModelPath(.lite) == "/home/coach/.cache/spotter/models/hand_landmarker_lite.task")
        let xdg = MediaPipeInstallation.fromEnvironment(["HOME": "/h", "XDG_CACHE_HOME": "/xdg"])
        #expect(xdg.modelDirectory == "/xdg/spotter/models")
        let explicit = MediaPipeInstallation.fromEnvironment([
            "HOME": "/h", "SPOTTER_CACHE_DIR": "/cache", "SPOTTER_MODEL_DIR": "/models",
        ])
        #expect(explicit.libraryPath == "/cache/mediapipe-1.2.2/libmediapipe.so")
        #expect(explicit.modelDirectory == "/models")
        let library = MediaPipeInstallation.fromEnvironment(["HOME": "/h", "SPOTTER_MEDIAPIPE_LIBRARY": "/opt/libmp.so"])
        #expect(library.libraryPath == "/opt/libmp.so")
    }
}
