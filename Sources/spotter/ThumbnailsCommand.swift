import Analysis
import ArgumentParser
import AtomicFiles
import Contracts
import Foundation
import LandmarkTracks

extension Spotter {
    /// The worker's picture of each rep's turn, made in a child process like the
    /// landmarks: decoding a client's video again should fail a picture only.
    struct Thumbnails: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a JPEG of a video at given times, with the track's skeleton drawn (used by the worker).",
            shouldDisplay: false)

        @Argument(help: "The video.")
        var video: String

        @Option(help: "The video's landmark track (spotter.landmarks/v1).")
        var track: String

        @Option(help: "Times in the video, milliseconds, separated by commas.")
        var at: String

        @Option(help: "Where to write 1.jpg, 2.jpg, … (one for each time, in order).")
        var outDir: String

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            guard !times.isEmpty, times.count <= 1_000 else { throw ValidationError("--at takes 1 to 1000 times in milliseconds, such as 1200,3400") }
        }

        private var times: [Int] {
            let parts = at.split(separator: ",", omittingEmptySubsequences: false)
            let values = parts.compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.filter { $0 >= 0 }
            return values.count == parts.count ? values : []
        }

        func run() async throws {
            _ = global.bootstrapLogging(routingEngineLog: false)
            try exitWithParentIfAsked()
            do {
                let pictures = try await RepThumbnails.make(
                    video: video, track: try LandmarkTrack(contentsOfFile: track), at: times)
                for (index, picture) in pictures.enumerated() {
                    let file = try AtomicFile(path: "\(outDir)/\(index + 1).jpg")
                    try file.write(picture)
                    try file.commit()
                }
            } catch {
                throw commandFailure(error)
            }
        }
    }
}
