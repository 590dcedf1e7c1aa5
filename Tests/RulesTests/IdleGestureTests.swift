import Rules
import Testing
import WorkoutSimulator

/// Gestures between sets that look like reps to a plain angle counter, on
/// tuning seeds of the independent generator (never its held-out ones).
@Suite("Idle gestures are not reps")
struct IdleGestureTests {
    /// (exercise, idle seed, what the person does, reps counted before)
    static let cases: [(String, UInt64, String, Int)] = [
        // Straight arms swung forward and back, one reached overhead (the generator once
        // folded a swinging arm through the shoulder, which read as curls).
        ("bicep_curl", 2_000_050, "swings arms, adjusts clothes, stands, reaches up", 7),
        // Filmed from the side, the far arm, hidden behind the body, bends as the near one stays
        // still: counted on MediaPipe's guesses (a far arm may curl alone), its upper arm and
        // wrist were judged on nothing. Read from the same guesses, its wrist never comes up
        // to the elbow's height, as a curl's does.
        ("bicep_curl", 55, "shifts weight, rolls shoulders, looks around, turns, adjusts clothes, swings arms", 2),
        ("bicep_curl", 2_000_019, "adjusts clothes, hinges to the floor, looks around, rolls shoulders, swings arms, turns", 2),
        ("bicep_curl", 2_000_063, "reaches up, hinges to the floor, adjusts clothes, swings arms, turns, shifts weight", 3),
        // Both hands reaching up one after the other, and a bend to the floor: a jumping jack
        // raises both arms at once, upright, in under 2.5 s.
        ("jumping_jack", 2_000_005, "turns, adjusts clothes, reaches up, hinges to the floor", 3),
        // Both arms raised overhead in front, quickly and upright: a jumping jack takes them
        // out to the sides, wrists 2–3 torso lengths apart as they pass shoulder height.
        ("jumping_jack", 2_000_021, "walks in, reaches up, shifts weight, turns, adjusts clothes", 1),
        ("jumping_jack", 2_000_066, "rolls shoulders, looks around, swings arms, reaches up, adjusts clothes, walks away", 4),
        ("jumping_jack", 2_000_087, "walks in, reaches up, turns, hinges to the floor, stands, swings arms", 1),
        // Filmed from the side or back, the far arm bends while hidden (a reach, adjusting clothes, an
        // arm swing): counted on MediaPipe's guesses, its wrist was judged on nothing; read on the same
        // guesses, it never goes overhead as a press's does.
        ("overhead_press", 2_000_129, "walks in, looks around, reaches up, adjusts clothes, adjusts clothes, shifts weight", 1),
        ("overhead_press", 2_000_232, "walks in, swings arms, stands, shifts weight, hinges to the floor, walks away", 2),
        ("overhead_press", 2_000_244, "reaches up, shifts weight, swings arms", 2),
        // Standing, the far hip, hidden, bends and straightens in MediaPipe's guesses while the near one
        // stays straight: at the floor of a deadlift both hips bend.
        ("deadlift", 2_000_108, "stands, hinges to the floor, swings arms, rolls shoulders, turns, shifts weight, walks away", 1),
        ("deadlift", 2_000_117, "stands, looks around, swings arms, turns", 2),
        // Filmed from the front at floor level, the elbows seen end-on jitter by ±20° from
        // frame to frame: noise alone made reps before the rep detector asked for more range on such a track.
        ("pushup", 2_000_004, "walks in, gets down on all fours, turns, stands", 4),
        ("pushup", 2_000_041, "walks in, reaches up, adjusts clothes, stands, gets down on all fours, walks away", 4),
        // On all fours (hips bent to about 100°) the arms bend and straighten as the person
        // settles: a push-up holds the body straight at least to the knees.
        ("pushup", 2_000_174, "swings arms, hinges to the floor, gets down on all fours", 1),
        // Standing, filmed close with the shoulders out of the picture: the body's incline is
        // not measured, the legs' (hip to ankle) shows the person upright.
        ("pushup", 2_000_159, "adjusts clothes, adjusts clothes, turns, walks away", 3),
        // Holding a plank, the far elbow, hidden, swings 60° in MediaPipe's guesses while the
        // near one stays straight: in a push-up both elbows bend.
        ("pushup", 2_000_219, "walks in, gets down on all fours, stands, looks around, reaches up, shifts weight", 1),
    ]

    @Test("arm swings, reaches, bends and a noisy kneel count nothing", arguments: cases.map { "\($0.0) \($0.1)" })
    func idle(_ name: String) throws {
        let (exercise, seed, _, _) = Self.cases.first { "\($0.0) \($0.1)" == name }!
        let session = WorkoutSimulator.session(exercise, seed: seed, idle: true)
        let report = Scorer(rule: try RuleFixtures.book.rule(for: exercise)).score(session.track).report
        #expect(report.repCount == 0, "\(session.summary): \(report.reps.map { "\($0.startMilliseconds)-\($0.endMilliseconds)" })")
    }
}
