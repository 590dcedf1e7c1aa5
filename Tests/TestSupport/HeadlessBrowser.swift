import Foundation

/// A page as Debian's Chromium draws it headless: the screenshot, and every
/// message the page wrote to the console (errors, failed loads, refused
/// fetches, and anything logged).
public struct BrowserRendering: Sendable {
    /// The window's picture, RGB.
    public var screenshot: Pixels
    public var consoleMessages: [String]
}

/// Debian's `chromium`, headless, which the test set-up installs.
public enum HeadlessBrowser {
    public static let executable = URL(fileURLWithPath: "/usr/bin/chromium")

    /// Opens the HTML file at `path` in a `width` × `height` window, takes a
    /// screenshot and collects the console; throws when Chromium cannot run.
    public static func render(file path: String, width: Int, height: Int) async throws -> BrowserRendering {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-browser-\(UUID())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let picture = scratch.appendingPathComponent("screenshot.png").path
        let outcome = try await runSubprocess(executable, [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            "--user-data-dir=\(scratch.path)/profile", "--enable-logging=stderr", "--v=0",
            "--screenshot=\(picture)", "--window-size=\(width),\(height)", URL(fileURLWithPath: path).absoluteString,
        ])
        guard outcome.status == 0, FileManager.default.fileExists(atPath: picture) else {
            throw Clips.ClipError(message: "chromium could not draw \(path) (status \(outcome.status)): \(outcome.standardError)")
        }
        let screenshot = try Pixels(picture: picture, width: width, height: height)
        // Chromium logs each console message as `…:INFO:CONSOLE:LINE] "text", source: URL (LINE)`.
        let console = outcome.standardError.split(separator: "\n").filter { $0.contains(":CONSOLE") }.map(String.init)
        return BrowserRendering(screenshot: screenshot, consoleMessages: console)
    }
}

extension Pixels {
    /// The picture file at `path` (PNG, JPEG, …) as ffmpeg decodes it, RGB;
    /// throws unless it is `width` × `height`.
    public init(picture path: String, width: Int, height: Int) throws {
        let rgb = try Clips.run("/usr/bin/ffmpeg", [
            "-nostdin", "-hide_banner", "-loglevel", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-",
        ])
        guard rgb.count == width * height * 3 else {
            throw Clips.ClipError(message: "\(path) decodes to \(rgb.count) bytes, not \(width)×\(height) RGB")
        }
        self.init(bytes: [UInt8](rgb), width: width, height: height, channels: 3)
    }

    /// The picture in `data` (PNG, JPEG, …) as ffmpeg decodes it, RGB; throws unless it is `width` × `height`.
    public init(picture data: Data, width: Int, height: Int) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-picture-\(UUID())")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try self.init(picture: file.path, width: width, height: height)
    }

    /// The RGB pixel at column `x`, row `y`.
    public func rgb(_ x: Int, _ y: Int) -> (Int, Int, Int) {
        let start = (y * width + x) * channels
        return (Int(bytes[start]), Int(bytes[start + 1]), Int(bytes[start + 2]))
    }

    /// Whether the pixel at `x`, `y` is within `tolerance` of `color` (0xRRGGBB) in every channel.
    public func matches(_ x: Int, _ y: Int, _ color: Int, tolerance: Int = 12) -> Bool {
        let (r, g, b) = rgb(x, y)
        return abs(r - (color >> 16 & 0xff)) <= tolerance && abs(g - (color >> 8 & 0xff)) <= tolerance
            && abs(b - (color & 0xff)) <= tolerance
    }

    /// How many pixels in `columns` × `rows` are near `color`.
    public func count(_ color: Int, columns: Range<Int>? = nil, rows: Range<Int>? = nil, tolerance: Int = 12) -> Int {
        var total = 0
        for y in rows ?? 0..<height {
            for x in columns ?? 0..<width where matches(x, y, color, tolerance: tolerance) { total += 1 }
        }
        return total
    }
}
