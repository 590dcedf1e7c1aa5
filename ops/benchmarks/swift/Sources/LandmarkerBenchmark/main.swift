// usage: LandmarkerBenchmark pose|hand ITERATIONS IMAGE...
// Prints one JSON object: engine and landmarker load times, the median
// detection latency per image (after one warm-up detection), and peak RSS.
import Foundation
import Landmarkers

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count >= 3, let iterations = Int(arguments.dropFirst().first!) else {
    FileHandle.standardError.write(Data("usage: LandmarkerBenchmark pose|hand ITERATIONS IMAGE...\n".utf8))
    exit(64)
}
let task = arguments.first!
let images = Array(arguments.dropFirst(2))
let clock = ContinuousClock()
func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

let installation = MediaPipeInstallation.fromEnvironment()
let engineLoad = try clock.measure { _ = try MediaPipeEngine.load(libraryPath: installation.libraryPath) }
var detect: (MPImage) throws -> Void = { _ in }
let landmarkerLoad = try clock.measure {
    if task == "pose" {
        let landmarker = try PoseLandmarker(modelPath: installation.poseModelPath)
        detect = { _ = try landmarker.detect(image: $0) }
    } else {
        let landmarker = try HandLandmarker(modelPath: installation.handModelPath(.full))
        detect = { _ = try landmarker.detect(image: $0) }
    }
}
var latencies: [String: Double] = [:]
for path in images {
    let image = try MPImage(contentsOfFile: path)
    try detect(image)
    var samples = try (0..<iterations).map { _ in milliseconds(try clock.measure { try detect(image) }) }
    samples.sort()
    latencies[(path as NSString).lastPathComponent] = samples[samples.count / 2]
}
var usage = rusage()
getrusage(RUSAGE_SELF.rawValue, &usage)
let report: [String: Any] = [
    "task": task,
    "engine_load_ms": milliseconds(engineLoad),
    "landmarker_load_ms": milliseconds(landmarkerLoad),
    "median_latency_ms": latencies,
    "peak_rss_mb": Double(usage.ru_maxrss) / 1024,
]
print(String(decoding: try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys]), as: UTF8.self))
