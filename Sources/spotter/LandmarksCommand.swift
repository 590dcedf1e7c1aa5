import Analysis
import ArgumentParser
import AtomicFiles
import Contracts
import Foundation
import Landmarkers
import Logging

extension Spotter {
    struct Landmarks: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the landmark track (spotter.landmarks/v1) of an image or a video.",
            discussion: """
                An image gives one frame at t_ms 0, with fps 0. A video is decoded upright, \
                scaled to a long side of at most 1280 pixels, and run through the landmarkers \
                in video mode; the header gives the size and rate of those frames. \
                The track goes to --out, written whole or not at all, or else to standard output.
                """)

        @Argument(help: "A JPEG or PNG image, or a video file.")
        var input: String

        @Flag(help: "Run the hand landmarker as well.")
        var hands = false

        @Flag(help: "With --hands, in a video: look for hands only on frames that follow one whose pose has a wrist in view.")
        var handsNearWrists = false

        @Option(help: "Frames per second to analyse, chosen by timestamp (default: every frame).")
        var fps: Double?

        @Option(help: "The most frames per second to analyse: a faster video is sampled at this rate (default: no limit).")
        var maxFps: Double?

        @Option(help: "The most people to find in a frame.")
        var numPoses = 1

        @Option(help: "The most hands to find in a frame, with --hands.")
        var numHands = 2

        @Option(help: "Hand model size: full (accurate) or lite (faster).")
        var handModel = HandModel.full

        @Option(help: "Where the models run: cpu, or gpu (a real GPU with its EGL driver; exit 69 when there is none).")
        var delegate = BaseOptions.Delegate.cpu

        @Option(help: ArgumentHelp(
            "How many parts of a video to landmark at once, each on a core of its own (default: the cores available).",
            valueName: "n"))
        var threads = ProcessInfo.processInfo.activeProcessorCount

        @Option(name: .shortAndLong, help: "Write the track to this file instead of standard output.")
        var out: String?

        @Option(help: ArgumentHelp(
            "Also write what the decoder lost (cut files, undecodable frames) as a JSON array of warnings.",
            valueName: "file"))
        var warningsOut: String?

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            guard numPoses > 0 else { throw ValidationError("--num-poses must be at least 1") }
            guard numHands > 0 else { throw ValidationError("--num-hands must be at least 1") }
            guard (1...256).contains(threads) else { throw ValidationError("--threads must be within 1...256") }
            if let fps, !(fps > 0 && fps <= 1000) { throw ValidationError("--fps must be within (0, 1000]") }
            if let maxFps, !(maxFps > 0 && maxFps <= 1000) { throw ValidationError("--max-fps must be within (0, 1000]") }
            if fps != nil, maxFps != nil { throw ValidationError("give --fps or --max-fps, not both") }
        }

        func run() async throws {
            let logger = global.bootstrapLogging(routingEngineLog: true)
            try exitWithParentIfAsked()
            var options = LandmarkOptions()
            options.hands = hands
            options.handsNearWrists = handsNearWrists
            options.numPoses = numPoses
            options.numHands = numHands
            options.handModel = handModel
            options.delegate = delegate
            options.threads = threads
            options.decoding.frameRate = fps
            options.decoding.maxFrameRate = maxFps
            do {
                let output = try out.map(AtomicFile.init(path:))
                var progress = ProgressLog(logger: logger, input: input)
                let summary = try await LandmarkExtraction.run(
                    inputPath: input, options: options, installation: MediaPipeInstallation.fromEnvironment(),
                    progress: { progress.report($0) },
                    write: { data in
                        if let output { try output.write(data) } else { FileHandle.standardOutput.write(data) }
                    })
                if let warningsOut {
                    let warnings = try AtomicFile(path: warningsOut)
                    try warnings.write(try JSONEncoder().encode(summary.warnings))
                    try warnings.commit()
                }
                try output?.commit()
                for warning in summary.warnings { logger.warning("\(warning)") }
                let searched = hands ? " in \(summary.framesSearchedForHands) frame(s) searched" : ""
                logger.info(
                    "\(input): \(summary.frames) frame(s), \(summary.framesWithPose) with a pose, \(summary.hands) hand(s)\(searched)\(out.map { " → \($0)" } ?? "")")
            } catch {
                throw commandFailure(error)
            }
        }
    }
}

/// Logs how far a long run has got, every few seconds.
struct ProgressLog {
    let logger: Logger
    let input: String
    private var lastReport = ContinuousClock.now

    init(logger: Logger, input: String) {
        self.logger = logger
        self.input = input
    }

    mutating func report(_ progress: LandmarkProgress) {
        guard ContinuousClock.now - lastReport >= .seconds(3) else { return }
        lastReport = .now
        let done = Double(progress.timestampMilliseconds) / 1000
        let total = progress.durationMilliseconds.map { String(format: " of %.1f s", Double($0) / 1000) } ?? ""
        logger.info("\(input): \(progress.frames) frame(s), \(String(format: "%.1f s", done))\(total)")
    }
}

extension HandModel: ExpressibleByArgument {}
extension BaseOptions.Delegate: ExpressibleByArgument {}
