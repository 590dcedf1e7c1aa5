@testable import Rules
import Foundation
import LandmarkTracks
import SyntheticMotion
import Testing

/// A plank is held on both legs (plank v8: `knee` reads the more bent leg). A
/// fresh public clip of a woman stepping back into a plank from all fours, one
/// foot at a time, was held from the moment her near leg was straight, while
/// her far knee still rested on the floor: 25.8 s of 22–24 s.
@Suite("Getting into a plank")
struct PlankEntryTests {
    /// `track` with one leg kneeling — the thigh straight down from the hip, the
    /// shin back along the floor toward the feet — in every frame before `until`
    /// (milliseconds), in world and picture coordinates alike.
    static func kneeling(_ track: LandmarkTrack, leg: Leg, until: Int) -> LandmarkTrack {
        var changed = track
        for index in changed.frames.indices where changed.frames[index].timestampMilliseconds < until {
            guard !changed.frames[index].poses.isEmpty else { continue }
            changed.frames[index].poses[0].world = leg.kneeling(changed.frames[index].poses[0].world, depth: 1)
            changed.frames[index].poses[0].landmarks = leg.kneeling(changed.frames[index].poses[0].landmarks, depth: 0)
        }
        return changed
    }

    /// One leg's landmark indices: hip, knee, ankle, heel, foot index.
    struct Leg {
        let hip, knee, ankle, heel, foot: Int
        static let left = Leg(hip: 23, knee: 25, ankle: 27, heel: 29, foot: 31)
        static let right = Leg(hip: 24, knee: 26, ankle: 28, heel: 30, foot: 32)

        /// The leg kneeling; y points down in both spaces, `depth` weighs z (0 in the picture).
        func kneeling(_ points: [TrackLandmark], depth: Float) -> [TrackLandmark] {
            var moved = points
            func length(_ x: Float, _ y: Float, _ z: Float) -> Float { (x * x + y * y + depth * z * z).squareRoot() }
            let (top, bend, end) = (points[hip], points[knee], points[ankle])
            let thigh = length(bend.x - top.x, bend.y - top.y, bend.z - top.z)
            let shin = length(end.x - bend.x, end.y - bend.y, end.z - bend.z)
            let level = max(length(end.x - top.x, 0, end.z - top.z), 1e-6)
            let back = ((end.x - top.x) / level, depth * (end.z - top.z) / level)
            func placed(_ along: Float) -> TrackLandmark {
                TrackLandmark(x: top.x + back.0 * along, y: top.y + thigh, z: top.z + back.1 * along, visibility: 0.9, presence: 0.9)
            }
            (moved[knee], moved[ankle], moved[heel], moved[foot]) = (placed(0), placed(shin), placed(shin * 1.1), placed(shin * 1.25))
            return moved
        }
    }

    /// `track` with the hips lowered by `drop` torso lengths (the knees by half
    /// that: the thighs let down toward the floor) in the frames of `span`
    /// (milliseconds), in world and picture coordinates alike (y points down in
    /// both; the picture's x and y are shares of its width and height).
    static func hipsLowered(_ track: LandmarkTrack, by drop: Float, in span: Range<Int>) -> LandmarkTrack {
        var changed = track
        func lowered(_ points: [TrackLandmark], aspect: Float) -> [TrackLandmark] {
            var moved = points
            let torso = ((points[11].x + points[12].x - points[23].x - points[24].x) / 2 * aspect,
                         (points[11].y + points[12].y - points[23].y - points[24].y) / 2, (points[11].z + points[12].z - points[23].z - points[24].z) / 2)
            let length = (torso.0 * torso.0 + torso.1 * torso.1 + (aspect == 1 ? torso.2 * torso.2 : 0)).squareRoot()
            for (index, share) in [(23, Float(1)), (24, 1), (25, 0.5), (26, 0.5)] { moved[index].y += share * drop * length }
            return moved
        }
        let aspect = Float(track.header.width) / Float(track.header.height)
        for index in changed.frames.indices where span.contains(changed.frames[index].timestampMilliseconds) {
            guard !changed.frames[index].poses.isEmpty else { continue }
            changed.frames[index].poses[0].world = lowered(changed.frames[index].poses[0].world, aspect: 1)
            changed.frames[index].poses[0].landmarks = lowered(changed.frames[index].poses[0].landmarks, aspect: aspect)
        }
        return changed
    }

    /// When the track first comes near level (shoulders and ankles within 30° of level), milliseconds.
    static func firstLevel(_ track: LandmarkTrack) throws -> Int {
        try #require(track.frames.first { frame in
            guard let world = frame.poses.first?.world else { return false }
            let (x, y) = ((world[11].x + world[12].x - world[27].x - world[28].x) / 2, (world[11].y + world[12].y - world[27].y - world[28].y) / 2)
            return abs(y) < abs(x) * tan(30 * .pi / 180)
        }).timestampMilliseconds
    }

    /// Plank v10. A fresh public clip of a woman propped on her forearms with her
    /// thighs on the floor for 9 s before lifting her hips into a forearm plank
    /// was held from the first: 43.7 s of 34–36 s. From the side, the hold starts
    /// where the hips are no more than 0.15 torso lengths below the shoulder–ankle line.
    @Test("propped on the forearms with the hips on the floor is not held yet; the same drop within the hold is a sag, held and flagged",
          arguments: [CameraSetup.left, .right])
    func hipsOnTheFloor(camera: CameraSetup) throws {
        let set = SessionCheckTests.set("plank") { $0.camera = camera; $0.noise = 0.005 }
        let plain = try SessionCheckTests.score("plank", set.track)
        let held = try #require(plain.holdMilliseconds)
        let level = try Self.firstLevel(set.track)
        let entering = try SessionCheckTests.score("plank", Self.hipsLowered(set.track, by: 0.3, in: 0..<(level + 2000)))
        let shorter = try #require(entering.holdMilliseconds)
        #expect(shorter <= held - 1500 && shorter >= held - 3000, "held \(held) ms, with the hips on the floor for 2 s \(shorter) ms")
        #expect(entering.faults.map(\.startMilliseconds) == plain.faults.map(\.startMilliseconds), "no sag flagged before the hold")
        // The set sags now and then (4.6–7.5 s, 9.5–11.5 s); 15–17 s is on the line.
        let sagging = try SessionCheckTests.score("plank", Self.hipsLowered(set.track, by: 0.3, in: (level + 13_000)..<(level + 15_000)))
        #expect(abs(try #require(sagging.holdMilliseconds) - held) <= 300, "held \(held) ms, sagging for 2 s within \(sagging.holdMilliseconds ?? 0) ms")
        #expect(sagging.faults.count == plain.faults.count + 1
                && sagging.faults.contains { $0.code == "hip_sag" && (level + 13_000...level + 15_000).contains($0.startMilliseconds) })
    }

    @Test("one leg stepped back while the other knee rests on the floor is not held yet", arguments: [CameraSetup.left, .right])
    func oneLegBack(camera: CameraSetup) throws {
        let set = SessionCheckTests.set("plank") { $0.camera = camera; $0.noise = 0.005 }
        let held = try #require(try SessionCheckTests.score("plank", set.track).holdMilliseconds)
        // From the first frame near level for 2 s more.
        let level = try Self.firstLevel(set.track)
        // The far leg kneels: the near one is the leg MediaPipe sees better.
        let far: Leg = camera == .left ? .right : .left
        let report = try SessionCheckTests.score("plank", Self.kneeling(set.track, leg: far, until: level + 2000))
        let shorter = try #require(report.holdMilliseconds)
        #expect(shorter <= held - 1500 && shorter >= held - 3000, "held \(held) ms, with a knee down for 2 s \(shorter) ms")
    }
}
