import ArgumentParser
import Foundation
import Landmarkers
import Pipeline

extension Spotter {
    struct Landmarks: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the landmark track (spotter.landmarks/v1) of an image.",
            discussion: """
                An image gives a track of one frame at t_ms 0, with fps 0. \
                The track goes to --out, written whole or not at all, or else to standard output.
                """)

        @Argument(help: "A JPEG or PNG image.")
        var input: String

        @Flag(help: "Run the hand landmarker as well.")
        var hands = false

        @Option(help: "The most people to find in a frame.")
        var numPoses = 1

        @Option(help: "The most hands to find in a frame, with --hands.")
        var numHands = 2

        @Option(help: "Hand model size: full (accurate) or lite (faster).")
        var handModel = HandModel.full

        @Option(name: .shortAndLong, help: "Write the track to this file instead of standard output.")
        var out: String?

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            guard numPoses > 0 else { throw ValidationError("--num-poses must be at least 1") }
            guard numHands > 0 else { throw ValidationError("--num-hands must be at least 1") }
        }

        func run() async throws {
            let logger = global.bootstrapLogging()
            var options = LandmarkOptions()
            options.hands = hands
            options.numPoses = numPoses
            options.numHands = numHands
            options.handModel = handModel
            do {
                let installation = MediaPipeInstallation.fromEnvironment()
                let output = try out.map(AtomicOutputFile.init(path:))
                let summary = try LandmarkExtraction.run(
                    inputPath: input, options: options, installation: installation,
                    write: { data in
                        if let output { try output.write(data) } else { FileHandle.standardOutput.write(data) }
                    })
                try output?.commit()
                logger.info(
                    "\(input): \(summary.frames) frame(s), \(summary.framesWithPose) with a pose, \(summary.hands) hand(s)\(out.map { " → \($0)" } ?? "")")
            } catch {
                throw commandFailure(error)
            }
        }
    }
}

extension HandModel: ExpressibleByArgument {}
