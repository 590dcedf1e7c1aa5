import Analysis
import ArgumentParser
import AtomicFiles
import Contracts
import Foundation
import Landmarkers
import ReportPages
import Rules

extension Spotter {
    struct Analyze: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Count reps and find faults in a video or a landmark track (spotter.report/v1).",
            discussion: """
                A video is decoded, run through the landmarkers in video mode and scored with \
                the exercise's rules; a track (--landmarks) is scored without running any model. \
                The report goes to standard output as a summary, or as JSON with --json; --out \
                and --html write it to files, whole or not at all. Exit 65 names a malformed \
                input or rule file with its line.
                """)

        @Argument(help: "A video to analyse (or a still image).")
        var input: String?

        @Option(help: ArgumentHelp("Score this landmark track instead of a video.", valueName: "track.jsonl"))
        var landmarks: String?

        @Option(help: "The exercise, as named in the rules directory (squat, pushup, bicep_curl, …).")
        var exercise: String

        @Flag(help: "Print the report as one JSON document on standard output, and nothing else there.")
        var json = false

        @Option(name: .shortAndLong, help: ArgumentHelp("Write the report JSON to this file.", valueName: "report.json"))
        var out: String?

        @Option(help: ArgumentHelp("Write the report as a self-contained HTML page.", valueName: "report.html"))
        var html: String?

        @Option(help: "Hand landmarks: auto (when the exercise's rules need them), on or off. Videos only.")
        var hands: HandTracking?

        @Option(help: "Frames per second to analyse, chosen by timestamp (default: every frame, at most 30 a second). Videos only.")
        var fps: Double?

        @Option(help: "Hand model size: full (accurate) or lite (faster). Videos only.")
        var handModel: HandModel?

        @Option(help: "Where the models run: cpu, or gpu (a real GPU with its EGL driver; exit 69 when there is none). Videos only.")
        var delegate: BaseOptions.Delegate?

        @Option(help: ArgumentHelp(
            "How many parts of a video to landmark at once, each on a core of its own (default: the cores available). Videos only.",
            valueName: "n"))
        var threads: Int?

        @OptionGroup var rules: RulesLocation
        @OptionGroup var global: GlobalOptions

        func validate() throws {
            switch (input, landmarks) {
            case (nil, nil): throw ValidationError("give a VIDEO to analyse, or a track with --landmarks")
            case (.some, .some): throw ValidationError("give a VIDEO or --landmarks, not both")
            case (nil, .some):
                if hands != nil || fps != nil || handModel != nil || delegate != nil || threads != nil {
                    throw ValidationError("--hands, --fps, --hand-model, --delegate and --threads apply to videos, not to --landmarks tracks")
                }
            case (.some, nil): break
            }
            if let fps, !(fps > 0 && fps <= 1000) { throw ValidationError("--fps must be within (0, 1000]") }
            if let threads, !(1...256).contains(threads) { throw ValidationError("--threads must be within 1...256") }
        }

        func run() async throws {
            let logger = global.bootstrapLogging(routingEngineLog: true)
            let directory = try rules.directory()
            let rule: ExerciseRule
            do {
                rule = try RuleBook.rule(for: exercise, in: directory)
            } catch {
                throw commandFailure(error)
            }
            do {
                // Outputs are opened first: an unwritable path fails before a long analysis.
                let jsonFile = try out.map(AtomicFile.init(path:))
                let htmlFile = try html.map(AtomicFile.init(path:))
                let analysis: Analysis
                if let landmarks {
                    analysis = try SessionAnalysis.scoreTrack(at: landmarks, rule: rule)
                } else {
                    let input = input!
                    var options = AnalysisOptions()
                    options.hands = hands ?? .auto
                    options.landmarks.decoding.frameRate = fps
                    options.landmarks.handModel = handModel ?? .full
                    options.landmarks.delegate = delegate ?? .cpu
                    options.landmarks.threads = threads ?? ProcessInfo.processInfo.activeProcessorCount
                    var progress = ProgressLog(logger: logger, input: input)
                    analysis = try await SessionAnalysis.analyzeVideo(
                        at: input, rule: rule, options: options, installation: MediaPipeInstallation.fromEnvironment(),
                        progress: { progress.report($0) })
                }
                let report = analysis.report
                try jsonFile?.write(report.jsonData() + Data("\n".utf8))
                try htmlFile?.write(Data(ReportPage(analysis: analysis, exerciseTitle: rule.title).html.utf8))
                try jsonFile?.commit()
                try htmlFile?.commit()
                if json {
                    FileHandle.standardOutput.write(report.jsonData() + Data("\n".utf8))
                } else {
                    FileHandle.standardOutput.write(Data(ReportSummary(report: report).text.utf8))
                }
                for path in [out, html].compactMap({ $0 }) { logger.info("wrote \(path)") }
            } catch {
                throw commandFailure(error)
            }
        }
    }
}

extension HandTracking: ExpressibleByArgument {}

/// Where the exercise rules are read from.
struct RulesLocation: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The rules directory (default: $SPOTTER_RULES_DIR, else the Rules directory of this installation).",
        valueName: "dir"))
    var rulesDir: String?

    func directory() throws -> String {
        if let rulesDir { return rulesDir }
        guard let found = InstallationDirectory.find("Rules", marker: "squat.yaml", environmentVariable: "SPOTTER_RULES_DIR") else {
            throw commandFailure(
                .unavailable, "no rules directory found; set SPOTTER_RULES_DIR or pass --rules-dir (the repository's Rules/)")
        }
        return found
    }
}
