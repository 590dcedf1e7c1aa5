import Foundation
import Synchronization

/// Video clips made at test time with the ffmpeg command-line tool (Debian's
/// ffmpeg package, installed by ops/setup), once per test run.
public enum Clips {
    /// A clip's recipe: the ffmpeg arguments before the output file, after the
    /// input clip it is made from if any.
    public struct Recipe: Sendable {
        public var file: String
        public var arguments: [String]
        public var input: String?

        init(file: String, arguments: [String], input: String? = nil) {
            self.file = file
            self.arguments = arguments
            self.input = input
        }
    }

    /// 320×240, 30 frames/s, 1 s of ffmpeg's testsrc2 pattern.
    static let pattern = ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-t", "1"]

    /// A person: bus.jpg looped for 1 s at 10 frames/s.
    static var person: [String] { ["-loop", "1", "-framerate", "10", "-i", TestAssets.photo("bus.jpg"), "-t", "1"] }

    public static let recipes: [String: Recipe] = [
        "h264.mp4": Recipe(file: "h264.mp4", arguments: pattern + ["-c:v", "libx264", "-pix_fmt", "yuv420p"]),
        "h264-faststart.mp4": Recipe(
            file: "h264-faststart.mp4",
            arguments: pattern + ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart"]),
        "hevc.mov": Recipe(file: "hevc.mov", arguments: pattern + ["-c:v", "libx265", "-pix_fmt", "yuv420p", "-tag:v", "hvc1"]),
        "hevc10.mov": Recipe(
            file: "hevc10.mov", arguments: pattern + ["-c:v", "libx265", "-pix_fmt", "yuv420p10le", "-tag:v", "hvc1"]),
        "vp8.webm": Recipe(file: "vp8.webm", arguments: pattern + ["-c:v", "libvpx", "-b:v", "1M"]),
        "vp9.mkv": Recipe(file: "vp9.mkv", arguments: pattern + ["-c:v", "libvpx-vp9", "-b:v", "1M", "-deadline", "realtime"]),
        "av1.webm": Recipe(file: "av1.webm", arguments: pattern + ["-c:v", "libsvtav1", "-preset", "12"]),
        "mpeg4.avi": Recipe(file: "mpeg4.avi", arguments: pattern + ["-c:v", "mpeg4", "-q:v", "3"]),
        "mjpeg.avi": Recipe(file: "mjpeg.avi", arguments: pattern + ["-c:v", "mjpeg", "-pix_fmt", "yuvj420p", "-q:v", "3"]),
        "nv12.mkv": Recipe(file: "nv12.mkv", arguments: pattern + ["-c:v", "rawvideo", "-pix_fmt", "nv12"]),
        "h264-444-odd.mp4": Recipe(
            file: "h264-444-odd.mp4",
            arguments: ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-t", "1", "-vf", "scale=321:241",
                        "-c:v", "libx264", "-pix_fmt", "yuv444p"]),
        "vfr.mkv": Recipe(
            file: "vfr.mkv",
            arguments: ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-t", "2",
                        // Every fifth frame dropped, the others keeping their times: gaps of 33 and 67 ms.
                        "-vf", "select='not(eq(mod(n,5),2))'",
                        "-fps_mode", "passthrough", "-c:v", "libx264", "-pix_fmt", "yuv420p"]),
        "person.mp4": Recipe(
            file: "person.mp4", arguments: person + ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-vf", "scale=810:1080"]),
        // A person with a hand in view for 1 s, a black picture for 1 s, the person again for 1 s.
        "person-away.mp4": Recipe(
            file: "person-away.mp4",
            arguments: ["-loop", "1", "-framerate", "10", "-i", TestAssets.photo("messi5.jpg"), "-t", "3", "-c:v", "libx264",
                        "-pix_fmt", "yuv420p", "-vf", "drawbox=enable='between(t,1,1.95)':c=black:t=fill"]),
        "person-stored-sideways.mp4": Recipe(
            file: "person-stored-sideways.mp4",
            arguments: person + ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-vf", "scale=810:1080,transpose=clock"]),
        // Stored turned clockwise, with a display matrix that turns it back: upright when played.
        "person-rotated.mp4": Recipe(
            file: "person-rotated.mp4", arguments: ["-c", "copy", "-metadata:s:v:0", "rotate=90"],
            input: "person-stored-sideways.mp4"),
        // 12 s with a key frame every second and B-frames: a decode span seeks by the index.
        "h264-keyframes.mp4": Recipe(
            file: "h264-keyframes.mp4",
            arguments: ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-t", "12", "-c:v", "libx264",
                        "-pix_fmt", "yuv420p", "-g", "30", "-bf", "3"]),
        "h264-keyframes.mkv": Recipe(file: "h264-keyframes.mkv", arguments: ["-c", "copy"], input: "h264-keyframes.mp4"),
        // The same as a live Matroska stream: no cues (index) to seek by, no duration.
        "h264-keyframes-live.mkv": Recipe(
            file: "h264-keyframes-live.mkv", arguments: ["-c", "copy", "-live", "1"], input: "h264-keyframes.mp4"),
        "mpeg4-keyframes.avi": Recipe(
            file: "mpeg4-keyframes.avi",
            arguments: ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-t", "12", "-c:v", "mpeg4", "-q:v", "3",
                        "-g", "30"]),
        "sine.m4a": Recipe(
            file: "sine.m4a", arguments: ["-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-c:a", "aac"]),
    ]

    private static let made = Mutex<[String: Result<String, any Error>]>([:])

    /// The scratch directory the clips are made in, for this run.
    public static let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-clips-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// The path of a clip, made on first use.
    public static func path(_ name: String) throws -> String {
        guard let recipe = recipes[name] else { throw ClipError(message: "no recipe for clip \(name)") }
        let input = try recipe.input.map { ["-i", try path($0)] } ?? []
        return try made.withLock { made in
            if let result = made[name] { return try result.get() }
            let output = directory.appendingPathComponent(recipe.file).path
            let result = Result { try ffmpeg(input + recipe.arguments + [output]) }.map { output }
            made[name] = result
            return try result.get()
        }
    }

    /// Runs the ffmpeg command-line tool, quietly; fails with its error output.
    public static func ffmpeg(_ arguments: [String]) throws {
        _ = try run("/usr/bin/ffmpeg", ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"] + arguments)
    }

    /// Runs a tool and returns its standard output; fails with its error output.
    /// It blocks its thread: clips are made once each, under the cache's lock.
    public static func run(_ tool: String, _ arguments: [String]) throws -> Data {
        let outcome = try runSubprocessBlocking(URL(fileURLWithPath: tool), arguments)
        guard outcome.status == 0 else {
            throw ClipError(message: "\(tool) \(arguments.joined(separator: " ")): \(outcome.standardError)")
        }
        return outcome.standardOutput
    }

    public struct ClipError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }
}
