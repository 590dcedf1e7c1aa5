internal import CMediaPipe
import Foundation
import Synchronization

/// Where `ops/setup` installs the MediaPipe engine and the model bundles.
///
/// Defaults live under the cache directory, `$SPOTTER_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/spotter`, else `~/.cache/spotter`; `SPOTTER_MEDIAPIPE_LIBRARY`
/// and `SPOTTER_MODEL_DIR` override the two locations one by one.
public struct MediaPipeInstallation: Sendable, Equatable {
    /// The version of the `mediapipe` wheel whose `libmediapipe.so` Spotter wraps.
    public static let engineVersion = "1.2.2"

    /// Path of `libmediapipe.so`.
    public var libraryPath: String
    /// Directory holding the `.task` bundles built by `ops/setup`.
    public var modelDirectory: String

    public init(libraryPath: String, modelDirectory: String) {
        self.libraryPath = libraryPath
        self.modelDirectory = modelDirectory
    }

    /// The installation named by the environment, with the defaults above.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> MediaPipeInstallation {
        let cache = cacheDirectory(environment)
        return MediaPipeInstallation(
            libraryPath: environment["SPOTTER_MEDIAPIPE_LIBRARY"].nonEmpty
                ?? "\(cache)/mediapipe-\(engineVersion)/libmediapipe.so",
            modelDirectory: environment["SPOTTER_MODEL_DIR"].nonEmpty ?? "\(cache)/models"
        )
    }

    /// Where `ops/setup` puts what it fetches and builds: `$SPOTTER_CACHE_DIR`,
    /// else `$XDG_CACHE_HOME/spotter`, else `~/.cache/spotter`.
    public static func cacheDirectory(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit = environment["SPOTTER_CACHE_DIR"], !explicit.isEmpty { return explicit }
        if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty { return xdg + "/spotter" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.cache/spotter"
    }

    /// The pose landmarker bundle (pose detector + full pose landmark model).
    public var poseModelPath: String { modelDirectory + "/pose_landmarker_full.task" }

    /// The hand landmarker bundle of the given size.
    public func handModelPath(_ model: HandModel) -> String {
        modelDirectory + "/hand_landmarker_\(model.rawValue).task"
    }

    /// Checks that `path` names a readable model bundle.
    public static func requireModel(at path: String) throws {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw LandmarkerError(
                .modelUnavailable, "model bundle \(path) is missing; run ops/setup to build it")
        }
    }
}

/// The two sizes of hand landmark model, like ML Kit's base and accurate choice.
public enum HandModel: String, Sendable, CaseIterable {
    /// Palm detection and hand landmarks, full size: the most accurate.
    case full
    /// The lite models: roughly half the work, a little less accurate.
    case lite
}

extension Optional<String> {
    fileprivate var nonEmpty: String? {
        guard let self, !self.isEmpty else { return nil }
        return self
    }
}

/// The loaded MediaPipe Tasks library.
///
/// The library is opened once per path and stays loaded for the life of the
/// process. The table of entry points it yields is immutable, which is why this
/// type may be `@unchecked Sendable`; the tasks built on it serialize their own calls.
public final class MediaPipeEngine: @unchecked Sendable {
    let api: UnsafePointer<CMediaPipe_API>
    /// Where the library was loaded from.
    public let libraryPath: String

    private init(api: UnsafePointer<CMediaPipe_API>, libraryPath: String) {
        self.api = api
        self.libraryPath = libraryPath
    }

    private static let loaded = Mutex<[String: MediaPipeEngine]>([:])

    /// Loads the library at `libraryPath`, or returns it if it is already loaded.
    public static func load(libraryPath: String) throws -> MediaPipeEngine {
        try loaded.withLock { engines in
            if let engine = engines[libraryPath] { return engine }
            guard FileManager.default.fileExists(atPath: libraryPath) else {
                throw LandmarkerError(
                    .engineUnavailable,
                    "MediaPipe engine \(libraryPath) is missing; run ops/setup to install it")
            }
            var error: UnsafeMutablePointer<CChar>?
            guard let api = CMediaPipe_open(libraryPath, &error) else {
                let reason = error.map { String(cString: $0) } ?? "unknown error"
                free(error)
                throw LandmarkerError(
                    .engineUnavailable,
                    "MediaPipe engine \(libraryPath) cannot be loaded (\(reason)); run ops/setup to reinstall it")
            }
            let engine = MediaPipeEngine(api: api, libraryPath: libraryPath)
            engines[libraryPath] = engine
            return engine
        }
    }

    /// The engine of the installation named by the environment.
    public static func fromEnvironment() throws -> MediaPipeEngine {
        try load(libraryPath: MediaPipeInstallation.fromEnvironment().libraryPath)
    }

    /// Calls a status-returning entry point and turns a failure into an error
    /// with `code` and `message`, carrying the engine's own message.
    func check(
        _ code: LandmarkerError.Code, _ message: @autoclosure () -> String,
        file: String = #fileID, line: Int = #line,
        _ call: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> MpStatus
    ) throws(LandmarkerError) {
        var error: UnsafeMutablePointer<CChar>?
        let status = call(&error)
        let engineMessage = error.map { String(cString: $0) }
        if let error { api.pointee.MpErrorFree(error) }
        guard status == kMpOk else {
            throw LandmarkerError(
                code, message(), mediaPipeStatus: status, mediaPipeMessage: engineMessage, file: file, line: line)
        }
    }
}
