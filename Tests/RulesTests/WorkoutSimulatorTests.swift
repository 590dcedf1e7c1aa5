import Foundation
import LandmarkTracks
import Testing
import WorkoutSimulator

/// The second, independent generator of synthetic workouts (Tests/WorkoutSimulator):
/// deterministic, varied, its truth consistent with its own noise-free kinematics,
/// its tracks well-formed and as flawed as a real detector's.
@Suite("WorkoutSimulator")
struct WorkoutSimulatorTests {
    static let exercises = WorkoutSimulator.exercises
    static let faultCodes = RuleFixtures.contractFaultCodes
    /// Two sessions of each exercise, shared by the tests that look at tracks.
    static let sample = exercises.flatMap { exercise in (UInt64(1)...2).map { WorkoutSimulator.session(exercise, seed: $0) } }

    @Test("the same seed gives the same session")
    func sameSeed() {
        for (exercise, idle) in [("squat", false), ("bicep_curl", false), ("plank", false), ("lunge", true)] {
            let a = WorkoutSimulator.session(exercise, seed: 7, idle: idle), b = WorkoutSimulator.session(exercise, seed: 7, idle: idle)
            #expect(a.track == b.track, "\(a.summary)")
            #expect(a.summary == b.summary)
            #expect(a.reps.map { [$0.startMs, $0.turnMs, $0.endMs] } == b.reps.map { [$0.startMs, $0.turnMs, $0.endMs] })
            #expect(a.reps.map(\.faults) == b.reps.map(\.faults))
            #expect(a.hold?.heldMs == b.hold?.heldMs)
        }
        #expect(WorkoutSimulator.session("squat", seed: 7).track != WorkoutSimulator.session("squat", seed: 8).track)
    }

    @Test("different seeds vary the camera, the frame size and the frame rate")
    func seedsVary() {
        let sessions = (1...40).map { WorkoutSimulator.plannedSession("jumping_jack", seed: $0) }
        let sizes = Set(sessions.map { "\($0.track.header.width)×\($0.track.header.height)" })
        #expect(sizes.count >= 4, "\(sizes)")
        #expect(sessions.contains { $0.track.header.height > $0.track.header.width }, "some portrait frames")
        #expect(Set(sessions.map(\.track.header.fps)).count >= 4)
        #expect(Set(sessions.map(\.view)) == ["front", "three-quarter", "side", "back"])
        let yaws = sessions.map(\.cameraYaw)
        #expect(yaws.min()! < -45 && yaws.max()! > 45)
        #expect(Set(sessions.map { $0.reps.count }).count >= 4, "rep counts vary")
    }

    @Test("the noise-free kinematics hit the planned angles at every turn", arguments: exercises)
    func plannedAngles(_ exercise: String) {
        for seed in UInt64(1)...10 {
            let session = WorkoutSimulator.plannedSession(exercise, seed: seed)
            let problems = session.planProblems(tolerance: 0.5)
            #expect(problems.isEmpty, "\(session.summary)\n\(problems.joined(separator: "\n"))")
        }
    }

    @Test("fault labels follow their definitions on the true kinematics, clearly clean or clearly faulty", arguments: exercises)
    func faultsFollowDefinitions(_ exercise: String) {
        var labelled = 0
        for seed in UInt64(1)...5 {
            let session = WorkoutSimulator.plannedSession(exercise, seed: seed)
            let problems = session.faultProblems()
            #expect(problems.isEmpty, "\(session.summary)\n\(problems.joined(separator: "\n"))")
            labelled += session.reps.filter { !$0.faults.isEmpty }.count + (session.hold?.faults.count ?? 0)
        }
        #expect(labelled > 0, "faults were drawn")
    }

    /// 50 sessions of each exercise: they generate, and their tracks and truth are well-formed
    /// (every landmark of the first ten looked at).
    @Test("every exercise generates 50 seeds, well-formed", arguments: exercises)
    func fiftySeeds(_ exercise: String) {
        let sessions = (UInt64(100)..<150).map { WorkoutSimulator.session(exercise, seed: $0) }
        let withHands = exercise == "bicep_curl" || exercise == "overhead_press"
        for (index, session) in sessions.enumerated() {
            let track = session.track, span = (track.frames.first?.timestampMilliseconds ?? 0)...(track.frames.last?.timestampMilliseconds ?? 0)
            #expect(track.header.source == "simulated" && track.frames.count > 50)
            #expect(zip(track.frames, track.frames.dropFirst()).allSatisfy { $0.timestampMilliseconds < $1.timestampMilliseconds })
            #expect(track.frames.allSatisfy { ($0.hands != nil) == withHands && $0.poses.count <= 1 })
            if index < 10 {
                #expect(track.frames.allSatisfy(Self.wellFormed), "\(session.summary)")
            }
            #expect(zip(session.reps, session.reps.dropFirst()).allSatisfy { $0.endMs <= $1.startMs }, "reps in order")
            #expect(session.reps.allSatisfy { $0.startMs < $0.turnMs && $0.turnMs < $0.endMs && span.contains($0.startMs) && span.contains($0.endMs) },
                    "\(session.summary)")
            #expect(session.reps.allSatisfy { $0.faults.isSubset(of: Self.faultCodes[exercise]!) })
            #expect(session.reps.allSatisfy { $0.partial == !$0.faults.isDisjoint(with: ["shallow_depth", "partial_rom", "partial_lockout"]) })
            #expect(exercise == "plank" ? session.reps.isEmpty && session.hold != nil : (1...12).contains(session.reps.count) && session.hold == nil)
            if let hold = session.hold {
                #expect(hold.heldMs > 5000 && hold.faults.allSatisfy { $0.endMs - $0.startMs >= 800 && Self.faultCodes["plank"]!.contains($0.code) })
            }
            let expectedView = switch abs(session.cameraYaw) {
            case ...22.5: "front"
            case ...67.5: "three-quarter"
            case ...112.5: "side"
            default: "back"
            }
            #expect(session.view == expectedView)
        }
        let reps = sessions.flatMap(\.reps)
        if exercise != "plank" {
            #expect(reps.contains { $0.partial } && reps.contains { $0.faults.isEmpty }, "sets have partial and clean reps")
        }
    }

    /// 33 pose rows and 21 hand rows, finite, visibility and presence in [0, 1].
    static func wellFormed(_ frame: LandmarkTrackFrame) -> Bool {
        func finite(_ l: TrackLandmark) -> Bool { l.x.isFinite && l.y.isFinite && l.z.isFinite }
        return frame.poses.allSatisfy { pose in
            pose.landmarks.count == 33 && pose.world.count == 33
                && (pose.landmarks + pose.world).allSatisfy { finite($0) && (0...1).contains($0.visibility ?? -1) && (0...1).contains($0.presence ?? -1) }
        } && (frame.hands ?? []).allSatisfy { $0.landmarks.count == 21 && $0.world.count == 21 && ($0.landmarks + $0.world).allSatisfy(finite) }
    }

    @Test("idle sets have no reps and no hold, but a person moving", arguments: exercises)
    func idleSets(_ exercise: String) {
        for seed in UInt64(1)...2 {
            let session = WorkoutSimulator.session(exercise, seed: seed, idle: true)
            #expect(session.idle && session.reps.isEmpty && session.hold == nil, "\(session.summary)")
            let poses = session.track.frames.compactMap { $0.poses.first }
            #expect(poses.count > session.track.frames.count / 3, "\(session.summary)")
            let travel = (0..<33).map { i in
                let xs = poses.map { $0.landmarks[i].x }, ys = poses.map { $0.landmarks[i].y }
                return xs.max()! - xs.min()! + ys.max()! - ys.min()!
            }
            #expect(travel.max()! > 0.1, "the person moves: \(session.summary)")
        }
    }

    @Test("tracks have frames without a pose and landmarks seen poorly")
    func detectorFlaws() {
        let frames = Self.sample.flatMap(\.track.frames)
        #expect(frames.contains { $0.poses.isEmpty })
        let landmarks = frames.flatMap { $0.poses.flatMap(\.landmarks) }
        #expect(landmarks.contains { ($0.visibility ?? 1) < 0.3 && (0...1).contains($0.x) && (0...1).contains($0.y) }, "hidden landmarks in frame")
        #expect(landmarks.contains { !(0...1).contains($0.y) || !(0...1).contains($0.x) }, "landmarks out of frame")
        let worldDepth = frames.flatMap { $0.poses.flatMap(\.world) }.map { abs($0.z) }
        #expect(worldDepth.max()! < 1.5, "world landmarks stay near the hips")
    }

    @Test("hands sit on the pose's wrists and are labelled mirrored")
    func hands() {
        var matched = 0, total = 0, mirrored = 0
        for session in Self.sample where session.exercise == "bicep_curl" || session.exercise == "overhead_press" {
            let size = (Float(session.track.header.width), Float(session.track.header.height))
            for frame in session.track.frames {
                guard let pose = frame.poses.first else { continue }
                func pixel(_ l: TrackLandmark) -> (Float, Float) { (l.x * size.0, l.y * size.1) }
                func distance(_ a: TrackLandmark, _ b: TrackLandmark) -> Float {
                    let (p, q) = (pixel(a), pixel(b))
                    return ((p.0 - q.0) * (p.0 - q.0) + (p.1 - q.1) * (p.1 - q.1)).squareRoot()
                }
                for hand in frame.hands ?? [] {
                    total += 1
                    let (left, right) = (distance(hand.landmarks[0], pose.landmarks[15]), distance(hand.landmarks[0], pose.landmarks[16]))
                    let forearm = distance(pose.landmarks[left < right ? 13 : 14], pose.landmarks[left < right ? 15 : 16])
                    if min(left, right) < 0.6 * forearm { matched += 1 }
                    if (left < right) == (hand.handedness == "Right") { mirrored += 1 }
                }
            }
        }
        #expect(total > 500)
        #expect(Double(matched) > 0.9 * Double(total), "\(matched) of \(total) hands on a wrist")
        #expect(Double(mirrored) > 0.75 * Double(total), "\(mirrored) of \(total) labelled mirrored")
    }

    @Test("variants keep their shape: split squats keep the back knee bent, Romanian deadlifts soft knees")
    func variantShapes() {
        var splits = 0, romanians = 0
        for seed in UInt64(1)...40 {
            let lunge = WorkoutSimulator.plannedSession("lunge", seed: seed)
            if lunge.summary.contains("stationary split squat"), let first = lunge.reps.first {
                splits += 1
                let back: BodySide = first.sides[0] == .left ? .right : .left
                let knee = lunge.kinematics.value(.knee(back), atMs: first.startMs)
                #expect((139...156).contains(knee), "back knee \(knee)° at the top: \(lunge.summary)")
            }
            let deadlift = WorkoutSimulator.plannedSession("deadlift", seed: seed)
            if deadlift.summary.contains("Romanian") {
                romanians += 1
                for rep in deadlift.reps where !rep.faults.contains("knees_locked_early") {
                    for t in stride(from: rep.startMs, through: rep.endMs, by: 50) {
                        let knee = deadlift.kinematics.value(.knee(.left), atMs: t)
                        #expect((149.5...165.5).contains(knee), "knee \(knee)° at \(t) ms: \(deadlift.summary)")
                    }
                }
            }
        }
        #expect(splits > 0 && romanians > 0)
    }

    @Test("a track reads back from JSON Lines")
    func roundTrip() throws {
        let session = WorkoutSimulator.session("overhead_press", seed: 3)
        let data = try LandmarkTrackWriter.jsonLines(of: session.track)
        let read = try LandmarkTrack(contentsOf: data, name: "simulated.jsonl")
        #expect(read.header == session.track.header)
        #expect(read.frames.count == session.track.frames.count)
        #expect(read.frames.map(\.poses.count) == session.track.frames.map(\.poses.count))
    }
}
