// usage: RescoreBenchmark DATABASE_URL MIGRATIONS_DIR RULES_DIR [SESSIONS]
// Prepares what `spotter rules rescore` and `rules diff` read: SESSIONS (1000)
// analysed squat sessions of about 60 s each, their landmark tracks stored
// packed as a worker stores them (eight distinct synthetic sets, 30 fps,
// taken in turn). Then measures the bound on one core: reading every stored
// track back (a page of 100 at a time), unpacking it and scoring it with the
// squat rule, nothing written. Prints one JSON object.
import Foundation
import LandmarkTracks
import Postgres
import Rules
import Store
import SyntheticMotion

let arguments = CommandLine.arguments
guard arguments.count >= 4 else {
    FileHandle.standardError.write(Data("usage: RescoreBenchmark DATABASE_URL MIGRATIONS_DIR RULES_DIR [SESSIONS]\n".utf8))
    exit(64)
}
let sessions = arguments.count > 4 ? Int(arguments[4]) ?? 1000 : 1000
let clock = ContinuousClock()
func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

let connection = try await PostgresConnection.connect(to: arguments[1])
_ = try await Migrator(files: MigrationFile.all(in: arguments[2])).migrate(connection)
let organization = try await Organization.create(name: "Rescore benchmark", on: connection)
let rule = try RuleBook.rule(for: "squat", in: arguments[3])

// Eight sets of about a minute: reps added until the set lasts 60 s.
var tracks: [LandmarkTrack] = []
for seed in 1...8 {
    var conditions = SetConditions()
    conditions.reps = 20
    var track = SyntheticSessions.make("squat", conditions, seed: UInt64(seed)).track
    while (track.frames.last?.timestampMilliseconds ?? 0) < 60_000 {
        conditions.reps += 2
        track = SyntheticSessions.make("squat", conditions, seed: UInt64(seed)).track
    }
    tracks.append(track)
}
let packed = tracks.map(LandmarkTrackPacking.pack)
for index in 0..<sessions {
    let track = tracks[index % tracks.count]
    _ = try await connection.transaction { session in
        let id: UUID = try session.query("""
            INSERT INTO sessions (organization_id, exercise, source_kind, source_uri, made_by, status, created_at)
            VALUES ($1, 'squat', 'track', $2, 'operator', 'analysed', now() - $3 * interval '1 second') RETURNING id
            """, [organization.id, "/bench/\(index).jsonl", index])[0].decode("id")
        try session.query(
            "INSERT INTO landmark_tracks (session_id, packing, frame_count, data, organization_id) VALUES ($1, $2, $3, $4, $5)",
            [id, LandmarkTrackPacking.name, track.frames.count, packed[index % packed.count], organization.id])
        return id
    }
}

// The bound: every stored track read, unpacked and scored once, on this core.
let scorer = Scorer(rule: rule)
var cursor: StoredTrack?, scored = 0, frames = 0, reps = 0
let started = clock.now
while true {
    let page = try await StoredTracks.page(exercise: "squat", organizationID: nil, since: nil, after: cursor, limit: 100, on: connection)
    guard !page.isEmpty else { break }
    for stored in page {
        reps += scorer.score(stored.track).report.repCount
        frames += stored.track.frames.count
        scored += 1
    }
    cursor = page.last
}
let elapsed = seconds(clock.now - started)
let meanSeconds = Double(tracks.map { $0.frames.last?.timestampMilliseconds ?? 0 }.reduce(0, +)) / Double(tracks.count) / 1000
let result: [String: Any] = [
    "sessions": scored, "mean_session_s": (meanSeconds * 10).rounded() / 10, "frames": frames, "reps": reps,
    "packed_bytes_mean": packed.map(\.count).reduce(0, +) / packed.count,
    "bound_s": (elapsed * 100).rounded() / 100, "bound_sessions_per_s": (Double(scored) / elapsed).rounded(),
]
print(String(decoding: try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys]), as: UTF8.self))
