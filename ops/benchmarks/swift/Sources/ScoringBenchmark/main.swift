// usage: ScoringBenchmark RULES_DIR [SETS_PER_EXERCISE] [MIN_SECONDS] [EXERCISE,…]
// Scores synthetic sets of every exercise (Tests/SyntheticMotion, 30 frames/s,
// six reps or a plank hold) with the rules of RULES_DIR, on the calling thread,
// repeating until MIN_SECONDS have passed per exercise. The baseline, measured
// on the same tracks in the same run, is the least any scorer must do: one
// world-landmark angle per frame (hip–knee–ankle). Prints one JSON object per
// exercise and one for all of them: frames, seconds, frames/s for both, and
// for context the frames/s of reading the same tracks from JSON Lines.
import Foundation
import LandmarkTracks
import Rules
import SyntheticMotion

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: ScoringBenchmark RULES_DIR [SETS_PER_EXERCISE] [MIN_SECONDS] [EXERCISE,…]\n".utf8))
    exit(64)
}
let book = try RuleBook(directory: arguments[1])
let setsPerExercise = arguments.count > 2 ? Int(arguments[2]) ?? 6 : 6
let minimumSeconds = arguments.count > 3 ? Double(arguments[3]) ?? 1 : 1
let exercises = arguments.count > 4 ? arguments[4].split(separator: ",").map(String.init) : SyntheticSessions.exercises
let clock = ContinuousClock()

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// Runs `body` over the tracks until `minimumSeconds` have passed; frames per second.
func measure(_ tracks: [LandmarkTrack], _ body: (LandmarkTrack) -> Int) -> (frames: Int, seconds: Double, checksum: Int) {
    var frames = 0, checksum = 0
    let start = clock.now
    repeat {
        for track in tracks {
            checksum &+= body(track)
            frames += track.frames.count
        }
    } while seconds(clock.now - start) < minimumSeconds
    return (frames, seconds(clock.now - start), checksum)
}

/// The baseline: the knee angle of the first pose's world landmarks, every frame.
func kneeAngles(_ track: LandmarkTrack) -> Int {
    var sum = 0.0
    for frame in track.frames {
        guard let pose = frame.poses.first else { continue }
        let hip = pose.world[23], knee = pose.world[25], ankle = pose.world[27]
        let u = SIMD3<Double>(Double(hip.x - knee.x), Double(hip.y - knee.y), Double(hip.z - knee.z))
        let v = SIMD3<Double>(Double(ankle.x - knee.x), Double(ankle.y - knee.y), Double(ankle.z - knee.z))
        let cosine = (u * v).sum() / (((u * u).sum() * (v * v).sum()).squareRoot() + 1e-12)
        sum += acos(max(-1, min(1, cosine)))
    }
    return Int(sum)
}

func emit(_ fields: [String: Any]) {
    print(String(decoding: try! JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]), as: UTF8.self))
}

var totals = (scored: 0, scoredSeconds: 0.0, baseline: 0, baselineSeconds: 0.0, read: 0, readSeconds: 0.0)
for exercise in exercises {
    let tracks = (0..<setsPerExercise).map { index in
        SyntheticSessions.make(exercise, SetConditions(), seed: 1000 + UInt64(index)).track
    }
    let scorer = Scorer(rule: try book.rule(for: exercise))
    let scored = measure(tracks) { scorer.score($0).report.repCount }
    let baseline = measure(tracks, kneeAngles)
    let files = try tracks.map(LandmarkTrackWriter.jsonLines(of:))
    let readStart = clock.now
    var readFrames = 0
    for (index, file) in files.enumerated() {
        readFrames += try LandmarkTrack(contentsOf: file, name: "track-\(index).jsonl").frames.count
    }
    let readSeconds = seconds(clock.now - readStart)
    totals.read += readFrames
    totals.readSeconds += readSeconds
    totals.scored += scored.frames
    totals.scoredSeconds += scored.seconds
    totals.baseline += baseline.frames
    totals.baselineSeconds += baseline.seconds
    emit([
        "exercise": exercise, "frames": scored.frames, "seconds": scored.seconds,
        "fps": Double(scored.frames) / scored.seconds, "baseline_fps": Double(baseline.frames) / baseline.seconds,
        "track_frames": tracks.reduce(0) { $0 + $1.frames.count }, "read_fps": Double(readFrames) / readSeconds,
    ])
}
emit([
    "exercise": "all", "frames": totals.scored, "seconds": totals.scoredSeconds,
    "fps": Double(totals.scored) / totals.scoredSeconds, "baseline_fps": Double(totals.baseline) / totals.baselineSeconds,
    "read_fps": Double(totals.read) / totals.readSeconds,
])
