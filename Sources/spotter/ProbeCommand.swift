import ArgumentParser
import Foundation
import Media

extension Spotter {
    struct Probe: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print what a video holds: container, codec, size, frame rate, duration, rotation.")

        @Argument(help: "A video file.")
        var input: String

        @Flag(help: "Print one JSON document instead of text.")
        var json = false

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            _ = global.bootstrapLogging()
            let info: VideoStreamInfo
            do {
                info = try await VideoReader.open(path: input).info
            } catch {
                throw commandFailure(error)
            }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                FileHandle.standardOutput.write(try encoder.encode(info) + Data("\n".utf8))
            } else {
                print(Self.describe(info))
            }
        }

        static func describe(_ info: VideoStreamInfo) -> String {
            func rate(_ value: Double?) -> String { value.map { String(format: "%.3f", $0) } ?? "unknown" }
            var lines = [
                "container:    \(info.container)",
                "codec:        \(info.codec)\(info.profile.map { " (\($0))" } ?? "")",
                "size:         \(info.width)×\(info.height), upright \(info.uprightWidth)×\(info.uprightHeight)",
                "rotation:     \(info.rotation)° clockwise to stand upright",
                "frame rate:   \(rate(info.averageFrameRate)) average, \(rate(info.realFrameRate)) base",
                "duration:     \(info.durationMilliseconds.map { String(format: "%.3f s", Double($0) / 1000) } ?? "unknown")",
                "frames:       \(info.frameCount.map(String.init) ?? "unknown")",
                "pixels:       \(info.pixelFormat), \(info.bitDepth) bit",
            ]
            if let bitRate = info.bitRate { lines.append("bit rate:     \(bitRate / 1000) kbit/s") }
            return lines.joined(separator: "\n")
        }
    }
}
