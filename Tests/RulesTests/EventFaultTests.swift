import Rules
import Testing
import WorkoutSimulator

/// A fault judged at an event — the deadlift's knees straightening while the
/// hips are still bent — is read where the event began, also when that was
/// just before the rep's phase starts, and at a low frame rate; depth is
/// confirmed by a second signal, or read on the limb ahead; knees caving in are
/// measured in the world, which the camera's perspective does not widen; a quick
/// rep's top is read within a tenth of the rep.
@Suite("Faults at an event, confirmed at the turn, on the limb ahead, or in the world")
struct EventFaultTests {
    @Test("knees straightened before the hips rise, filmed at 15 frames/s, are found on the reps that did it")
    func kneesLockedBeforeTheHipsRise() throws {
        // A tuning set: conventional deadlifts filmed from the side at 15 frames/s, the knees
        // straight before the hips leave the floor on most reps. Every one was missed when the
        // event was read only from the phase's start (two frames there: too few to read the hips).
        let session = WorkoutSimulator.session("deadlift", seed: 3_000_239)
        #expect(session.summary.contains("at 15 fps"), "\(session.summary)")
        let report = try Scorer(rule: RuleFixtures.book.rule(for: "deadlift")).score(session.track).report
        let truth = session.reps.map { $0.faults.contains("knees_locked_early") }
        #expect(truth.filter { $0 }.count >= 5)
        try #require(report.reps.count == session.reps.count)
        #expect(report.reps.map { $0.faults.contains("knees_locked_early") } == truth)
    }

    @Test("knees locked early where the hips are hidden at the floor: the hips are read where first seen after, and a rep they are never seen on is not judged")
    func kneesLockedWithTheHipsHidden() throws {
        // A tuning set: Romanian deadlifts filmed at three-quarter at 12 frames/s, the knees
        // straight before the hips rise on most reps. The working side is the far one, whose hip
        // MediaPipe hides at the floor: read only there, 8 such reps went unflagged and unreported
        // (now all but one are found; one rep the truth calls clean is flagged).
        let session = WorkoutSimulator.session("deadlift", seed: 3_000_853)
        #expect(session.summary.contains("Romanian") && session.summary.contains("at 12 fps"), "\(session.summary)")
        let report = try Scorer(rule: RuleFixtures.book.rule(for: "deadlift")).score(session.track).report
        try #require(report.reps.count == session.reps.count)
        let hidden = report.notJudged.first { $0.code == "knees_locked_early" && $0.reason == .hidden }?.reps ?? []
        let truth = session.reps.map { $0.faults.contains("knees_locked_early") }
        let judged = zip(report.reps, truth).filter { !hidden.contains($0.0.index) }
        let found = judged.filter { $0.1 && $0.0.faults.contains("knees_locked_early") }.count
        let falselyFlagged = judged.filter { !$0.1 && $0.0.faults.contains("knees_locked_early") }.count
        #expect(judged.filter(\.1).count >= 8 && found >= judged.filter(\.1).count - 1, "found \(found)")
        #expect(falselyFlagged <= 1)
        #expect(hidden.count <= 1, "\(hidden)")
    }

    @Test("quick jumping jacks (0.5 s a rep) that reach the top are not called partial: the top is read within a tenth of the rep, not 100 ms", arguments: [3_000_130, 3_000_187] as [UInt64])
    func quickTops(seed: UInt64) throws {
        // Two tuning sets of full jacks filmed from the back and the front: read as the median within
        // 100 ms of the turn, 4 and 5 of their reps had the arms short of 150° (130–142°), taking in
        // the way up and down of a top that lasts a fraction of 0.2 s.
        let session = WorkoutSimulator.session("jumping_jack", seed: seed)
        #expect(session.summary.contains("tempo 0.5 s/rep"), "\(session.summary)")
        let report = try Scorer(rule: RuleFixtures.book.rule(for: "jumping_jack")).score(session.track).report
        try #require(report.reps.count == session.reps.count)
        #expect(session.reps.allSatisfy { !$0.faults.contains("partial_rom") })
        #expect(report.reps.allSatisfy { !$0.faults.contains("partial_rom") }, "\(report.reps.map(\.faults))")
    }

    @Test("wide-hand push-ups filmed from the side: shallow_depth stands only where the world angle agrees with the picture's")
    func shallowDepthConfirmed() throws {
        // A tuning set: hands 1.7 shoulder widths apart, deep reps. The flared elbows read
        // 110–117° at the bottom in the picture, which flagged four deep reps before `confirm`.
        let session = WorkoutSimulator.session("pushup", seed: 3_000_087)
        #expect(session.summary.contains("hands wide"), "\(session.summary)")
        let report = try Scorer(rule: RuleFixtures.book.rule(for: "pushup")).score(session.track).report
        try #require(report.reps.count == session.reps.count)
        #expect(report.reps.map { $0.faults.contains("shallow_depth") } == session.reps.map { $0.faults.contains("shallow_depth") })
    }

    @Test("push-ups held at the bottom are read over the whole hold: shallow ones held 1.8 s are flagged, where the hold's most extreme moment read them deep enough")
    func pauseReadWhole() throws {
        // A tuning set: push-ups filmed from the side with the camera pitched down 18°, six of seven
        // shallow (elbows 110–130°) and held 1.8 s at the bottom; the picture's elbow wanders ±10°
        // over the hold, and its deepest 100 ms read two of them under the 105° that flags a rep.
        let session = WorkoutSimulator.session("pushup", seed: 3_000_124)
        #expect(session.summary.contains("pauses 1.8 s at the turn"), "\(session.summary)")
        let scorers = try RuleFixtures.withAndWithout("    pause: whole", in: "pushup")
        let report = scorers.with.score(session.track).report
        try #require(report.reps.count == session.reps.count)
        let before = scorers.without.score(session.track).report
        let shallow = { (report: SessionReport) in report.reps.map { $0.faults.contains("shallow_depth") } }
        let truth = session.reps.map { $0.faults.contains("shallow_depth") }
        let right = { (flags: [Bool]) in zip(flags, truth).filter { $0 == $1 }.count }
        #expect(right(shallow(report)) == right(shallow(before)) + 2, "\(shallow(report)) \(shallow(before)) \(truth)")
        #expect(zip(shallow(report), truth).allSatisfy { !$0 || $1 }, "no clean rep flagged")
    }

    @Test("a lunge's depth is read on the knee ahead: shallow lunges are flagged though the back knee bends more, and not judged where the front leg is the hidden far one")
    func lungeDepthOnTheKneeAhead() throws {
        // A tuning set: alternating shallow forward lunges filmed from the side, the right hip
        // hidden throughout; the near (left) leg leads on odd reps, the far one on even reps,
        // whose back knee bends more than the front. Read on the more bent knee of the two,
        // every even rep was clean; its depth cannot be seen, and the report says so.
        let session = WorkoutSimulator.session("lunge", seed: 3_000_225)
        #expect(session.reps.allSatisfy { $0.faults.contains("shallow_depth") })
        let report = try Scorer(rule: RuleFixtures.book.rule(for: "lunge")).score(session.track).report
        try #require(report.reps.count == session.reps.count)
        let hidden = report.notJudged.first { $0.code == "shallow_depth" && $0.reason == .hidden }?.reps ?? []
        #expect(hidden == [2, 4, 6, 8, 10])
        for rep in report.reps {
            #expect(rep.faults.contains("shallow_depth") == !hidden.contains(rep.index), "rep \(rep.index)")
            #expect((rep.metrics["min_knee_angle"] == nil) == hidden.contains(rep.index), "rep \(rep.index): \(rep.metrics)")
        }
        let unscorable = try #require(report.warnings.first { $0.hasPrefix("unscorable: shallow_depth") }, "\(report.warnings)")
        #expect(unscorable.contains("right knee") && !unscorable.contains("left knee"), "\(unscorable)")
    }

    @Test("knees caving in at the bottom of a squat filmed from the front are found: their spacing is measured in the world, not the picture")
    func kneesCavingInFromTheFront() throws {
        // A tuning set filmed from the front and close: at the bottom the knees come toward the
        // camera, and the picture shows them wider apart than they are, against the feet behind
        // them; two of the reps whose knees caved in read clean in the picture.
        let session = WorkoutSimulator.session("squat", seed: 3_000_170)
        #expect(session.summary.contains("(front)"), "\(session.summary)")
        let truth = session.reps.map { $0.faults.contains("knee_valgus") }
        #expect(truth.filter { $0 }.count >= 2)
        let report = try Scorer(rule: RuleFixtures.book.rule(for: "squat")).score(session.track).report
        try #require(report.reps.count == session.reps.count)
        #expect(report.reps.map { $0.faults.contains("knee_valgus") } == truth)
    }

    @Test(
        "a spacing over a width the movement leaves alone (the hips, planted feet) is read over that width's median within a second: its jitter alone flipped these reps' faults",
        arguments: [("squat", "knee_valgus", UInt64(3_000_053)), ("squat", "knee_valgus", 3_000_227),
                    ("jumping_jack", "partial_rom", 3_000_178), ("jumping_jack", "partial_rom", 3_000_298)])
    func steadyWidths(_ exercise: String, _ code: String, _ seed: UInt64) throws {
        // Tuning sets: with the hip width (or the feet's) read frame by frame, a knee caved in was
        // missed, or a jumping jack's feet opened wide read short, on one rep of each.
        let session = WorkoutSimulator.session(exercise, seed: seed)
        let report = try Scorer(rule: RuleFixtures.book.rule(for: exercise)).score(session.track).report
        try #require(report.reps.count == session.reps.count, "\(session.summary)")
        let notJudged = Set(report.notJudged.filter { $0.code == code }.flatMap(\.reps))
        let judged = report.reps.indices.filter { !notJudged.contains(report.reps[$0].index) }
        #expect(judged.count >= 3, "\(report.notJudged)")
        #expect(judged.map { report.reps[$0].faults.contains(code) } == judged.map { session.reps[$0].faults.contains(code) }, "\(session.summary)")
    }
}
