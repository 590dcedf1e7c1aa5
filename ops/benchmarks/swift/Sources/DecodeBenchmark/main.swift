// usage: DecodeBenchmark VIDEO [MAX_LONG_SIDE]
// Decodes every frame of VIDEO to RGB (at its native size unless MAX_LONG_SIDE
// is given) and prints one JSON object: frames, seconds, frames/s, peak RSS.
import Foundation
import Media

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: DecodeBenchmark VIDEO [MAX_LONG_SIDE]\n".utf8))
    exit(64)
}
var options = VideoDecodeOptions()
options.maxLongSide = arguments.count > 2 ? Int(arguments[2]) : nil
let clock = ContinuousClock()
var frames = 0
let elapsed = try await clock.measure {
    let reader = try VideoReader(path: arguments[1], options: options)
    for try await _ in reader.frames() { frames += 1 }
}
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
var usage = rusage()
getrusage(RUSAGE_SELF.rawValue, &usage)
let report: [String: Any] = [
    "frames": frames, "seconds": seconds, "fps": Double(frames) / seconds,
    "peak_rss_mb": Double(usage.ru_maxrss) / 1024,
]
print(String(decoding: try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys]), as: UTF8.self))
