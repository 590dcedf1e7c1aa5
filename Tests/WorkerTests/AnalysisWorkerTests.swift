import Contracts
import Foundation
import Logging
import Postgres
import Rules
import ServiceLifecycle
import Store
import Testing
import TestSupport
import Worker

@Suite("The analysis worker, on a real database")
struct AnalysisWorkerTests {
    @Test("a worker analyses a video, scores a track and a fetched track, and stores every report", .postgresDatabase)
    func successes() async throws {
        let fixture = try await WorkerFixture()
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let track = try fixture.squatTrack(reps: 4)
        server.respond(to: "/uploads/track.jsonl", with: .ok(Array(try Data(contentsOf: URL(fileURLWithPath: track)))))
        let video = try await fixture.enqueue(TestAssets.photo("mannequin-squat.mp4"), kind: .analyzeVideo)
        let local = try await fixture.enqueue(track)
        let fetched = try await fixture.enqueue(server.url("/uploads/track.jsonl?token=secret"))
        let jobs = try await withWorker(fixture.configuration) { try await fixture.wait(for: [video.id, local.id, fetched.id]) }
        #expect(jobs.map(\.state) == [.succeeded, .succeeded, .succeeded], "\(jobs.map { $0.lastError ?? "" })")

        let reps = try await fixture.queue.connection.query(
            "SELECT rep_count, report->'source'->>'path' AS path FROM analyses WHERE job_id = ANY($1::bigint[]) ORDER BY job_id",
            ["{\(video.id),\(local.id),\(fetched.id)}"])
        #expect(try reps.map { try $0.decode("rep_count", as: Int.self) } == [5, 4, 4])
        let fetchedPath = try reps[2].decode("path", as: String.self)
        #expect(fetchedPath.hasSuffix("/uploads/track.jsonl") && !fetchedPath.contains("secret"))
        #expect(try await fixture.count("SELECT count(*)::int AS count FROM outbox_events WHERE event_type = 'analysis.completed'") == 3)
        #expect(try await fixture.count("SELECT count(*)::int AS count FROM landmark_tracks") == 3)
        #expect(try await fixture.count("SELECT count(*)::int AS count FROM session_statuses WHERE status = 'analysed'") == 3)
        let stored = try #require(try await AnalysisStore(queue: fixture.queue).track(sessionID: video.sessionID, .allOrganizations))
        #expect(stored.frames.count > 100 && stored.header.source.hasSuffix("mannequin-squat.mp4"))

        // The report names a stored rule text; that text on the stored track gives the stored report again,
        // with the key signal its page plots: a page served from the database alone.
        let served = try #require(try await AnalysisStore(queue: fixture.queue).storedAnalysis(sessionID: video.sessionID, .allOrganizations))
        let file = fixture.configuration.rulesDirectory + "/squat.yaml"
        #expect(served.rule.text == (try String(contentsOfFile: file, encoding: .utf8)))
        var rescored = Scorer(rule: served.rule).score(stored).report
        rescored.warnings = served.analysis.report.warnings
        #expect(rescored == served.analysis.report, "the stored text and track reproduce the stored report")
        #expect(served.analysis.keySignal.times.count == stored.frames.count && served.analysis.report.repCount == 5)
        #expect(try await AnalysisStore(queue: fixture.queue).storedAnalysis(sessionID: video.sessionID, .organization(UUID())) == nil)
    }

    @Test("a rule file changed without a new version fails its jobs with the reason, and is not scored", .postgresDatabase)
    func changedRuleWithoutNewVersion() async throws {
        var fixture = try await WorkerFixture()
        let rules = fixture.directory + "/rules"
        try FileManager.default.createDirectory(atPath: rules, withIntermediateDirectories: true)
        let original = try String(contentsOfFile: fixture.configuration.rulesDirectory + "/squat.yaml", encoding: .utf8)
        let rule = try ExerciseRule(yaml: original, file: "squat.yaml")
        _ = try await RuleVersions.record(exercise: "squat", version: rule.version, body: original, on: fixture.queue.connection)
        try (original + "\n# changed after it was published\n").write(toFile: rules + "/squat.yaml", atomically: true, encoding: .utf8)
        fixture.configuration.rulesDirectory = rules
        let job = try await fixture.enqueue(try fixture.squatTrack(reps: 2), maxAttempts: 1)
        let finished = try await withWorker(fixture.configuration) { try await fixture.wait(for: [job.id]) }[0]
        #expect(finished.state == .dead || finished.state == .failed)
        #expect(finished.lastError?.contains("squat@\(rule.version) is already published with different contents") == true, "\(finished.lastError ?? "")")
        #expect(try await fixture.count("SELECT count(*)::int AS count FROM analyses") == 0)
    }

    @Test("a worker scores with the exercise's current published rule, not its own file, and the report names that version", .postgresDatabase)
    func publishedRule() async throws {
        let fixture = try await WorkerFixture()
        let file = try RuleBook.rule(for: "squat", in: fixture.configuration.rulesDirectory)
        // A published squat that differs from the file only in its title: the report must be scored with it.
        let strict = try ExerciseRule(yaml: file.text.replacingOccurrences(of: "title: Back squat", with: "title: Strict squat"), file: "strict.yaml")
        let publication = try await RuleVersions.publish(strict, author: "coach-admin", message: "a stricter title", on: fixture.queue.connection)
        #expect(publication == .published(file.version), "the file's own number: no version was stored before")
        let job = try await fixture.enqueue(try fixture.squatTrack(reps: 3))
        let finished = try await withWorker(fixture.configuration) { try await fixture.wait(for: [job.id]) }[0]
        #expect(finished.state == .succeeded, "\(finished.lastError ?? "")")
        let stored = try #require(try await AnalysisStore(queue: fixture.queue).storedAnalysis(sessionID: job.sessionID, .allOrganizations))
        #expect(stored.analysis.report.rulesVersion == "squat@\(file.version)" && stored.rule.title == "Strict squat")
        #expect(stored.analysis.report.repCount == 3)
    }

    @Test("bad input fails its job at once with the reason, and the worker goes on serving", .postgresDatabase)
    func badInput() async throws {
        let fixture = try await WorkerFixture()
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.respond(to: "/gone.mp4", with: .status(404))
        server.respond(to: "/busy.jsonl", with: .status(503))
        let corrupt = try fixture.file("corrupt.mp4", String(repeating: "not a video ", count: 500))
        let malformed = try fixture.file("malformed.jsonl", "{\"format\":\"spotter.landmarks/v1\",\"fps\":30,\"width\":640,\"height\":480,\"source\":\"x\"}\n{\"t_ms\": oops}\n")
        let cases: [(Job, String)] = [
            (try await fixture.enqueue(corrupt, kind: .analyzeVideo), "corrupt.mp4"),
            (try await fixture.enqueue(malformed), "malformed.jsonl:2"),
            (try await fixture.enqueue(try fixture.squatTrack(reps: 2), exercise: "yoga"), "yoga"),
            (try await fixture.enqueue(fixture.directory + "/missing.mp4", kind: .analyzeVideo), "missing.mp4"),
            (try await fixture.enqueue(server.url("/gone.mp4"), kind: .analyzeVideo), "404"),
        ]
        let busy = try await fixture.enqueue(server.url("/busy.jsonl"), maxAttempts: 2)
        let good = try await fixture.enqueue(try fixture.squatTrack(reps: 3, name: "good.jsonl"))
        let jobs = try await withWorker(fixture.configuration) {
            try await fixture.wait(for: cases.map(\.0.id) + [busy.id, good.id])
        }
        for ((_, reason), job) in zip(cases, jobs) {
            #expect(job.state == .failed && job.attempts == 1, "job \(job.id): \(job.state) \(job.lastError ?? "")")
            #expect(job.lastError?.contains(reason) == true, "\(job.lastError ?? "no error"), expected \(reason)")
        }
        #expect(jobs[cases.count].state == .dead && jobs[cases.count].attempts == 2)
        #expect(server.requests.filter { $0.path == "/busy.jsonl" }.count == 2)
        #expect(jobs[cases.count + 1].state == .succeeded)
        #expect(try await fixture.count("SELECT count(*)::int AS count FROM analyses") == 1)
        #expect(try await fixture.count("SELECT count(*)::int AS count FROM outbox_events WHERE event_type = 'analysis.failed'") == cases.count + 1)
    }

    @Test("an analysis that crashes or hangs fails only its own job", .postgresDatabase)
    func crashAndHang() async throws {
        var fixture = try await WorkerFixture()
        // Stands in for `spotter landmarks`: crashes or hangs by the video's name.
        fixture.configuration.executable = try fixture.file("analysis.sh", """
            #!/bin/sh
            case "$2" in
              *crash*) kill -SEGV $$ ;;
              *hang*) sleep 120 ;;
            esac
            echo "spotter: error: $2: unexpected" >&2
            exit 70
            """, executable: true)
        fixture.configuration.analysisTimeLimit = .seconds(1)
        let crash = try await fixture.enqueue(try fixture.file("crash.mp4", "x"), kind: .analyzeVideo)
        let hang = try await fixture.enqueue(try fixture.file("hang.mp4", "x"), kind: .analyzeVideo)
        let track = try await fixture.enqueue(try fixture.squatTrack(reps: 2))
        let jobs = try await withWorker(fixture.configuration) { try await fixture.wait(for: [crash.id, hang.id, track.id]) }
        #expect(jobs[0].state == .failed && jobs[0].lastError?.contains("SIGSEGV") == true, "\(jobs[0].lastError ?? "")")
        #expect(jobs[1].state == .failed && jobs[1].lastError?.contains("did not finish") == true, "\(jobs[1].lastError ?? "")")
        #expect(jobs[2].state == .succeeded)
    }

    @Test("a vanished worker's job is taken back without spending an attempt, and its late completion is refused", .postgresDatabase)
    func vanishedWorker() async throws {
        let fixture = try await WorkerFixture()
        let ghostQueue = JobQueue(connection: fixture.queue.connection, leaseDuration: .milliseconds(300))
        let job = try await fixture.enqueue(try fixture.squatTrack(reps: 2))
        let ghost = try #require(try await ghostQueue.claim(worker: "ghost"))
        let finished = try await withWorker(fixture.configuration) { try await fixture.wait(for: [job.id]) }[0]
        // At least the ghost's lease ran out (on a loaded machine the worker's own may too).
        #expect(finished.state == .succeeded && finished.attempts == 0 && finished.leaseExpirations >= 1)
        await #expect(throws: JobQueueError.self) {
            try await fixture.queue.connection.transaction { try ghostQueue.complete(ghost.lease, in: $0) }
        }
        #expect(try await fixture.count("SELECT count(*)::int AS count FROM analyses") == 1)
    }

    @Test("the analysis child gets only the variables it needs: no database URL, nothing else of the worker's", .postgresDatabase)
    func childEnvironment() async throws {
        var fixture = try await WorkerFixture()
        let dump = fixture.directory + "/child-environment.txt"
        fixture.configuration.executable = try fixture.file(
            "env.sh", "#!/bin/sh\nenv > '\(dump)'\necho 'spotter: error: stopped after writing its environment' >&2\nexit 65\n",
            executable: true)
        let job = try await fixture.enqueue(try fixture.file("clip.mp4", "x"), kind: .analyzeVideo)
        _ = try await withWorker(fixture.configuration) { try await fixture.wait(for: [job.id]) }
        let names = try String(contentsOfFile: dump, encoding: .utf8).split(separator: "\n").compactMap { $0.split(separator: "=").first.map(String.init) }
        let allowed = Set(
            CommandContract.childEnvironment + [CommandContract.exitWithParentVariable, CommandContract.noNetworkVariable, "PWD", "SHLVL", "_"])  // the last three: sh's own
        #expect(Set(names).isSubset(of: allowed), "\(Set(names).subtracting(allowed).sorted())")
        #expect(names.contains("PATH") && names.contains(CommandContract.exitWithParentVariable))
    }

    @Test("the scratch space is private: made 0700, and one open to others is refused before any job", .postgresDatabase)
    func privateScratchSpace() async throws {
        var fixture = try await WorkerFixture()
        let fresh = fixture.directory + "/scratch/fresh"
        fixture.configuration.workDirectory = fresh
        let job = try await fixture.enqueue(try fixture.squatTrack(reps: 2))
        _ = try await withWorker(fixture.configuration) { try await fixture.wait(for: [job.id]) }
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: fresh)[.posixPermissions] as? Int)
        #expect(mode == 0o700, "mode \(String(mode, radix: 8))")

        let shared = fixture.directory + "/shared-scratch"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
        fixture.configuration.workDirectory = shared
        let worker = AnalysisWorker(configuration: fixture.configuration, logger: Logger(label: "test-worker"))
        let error = await #expect(throws: (any Error).self) { try await worker.run() }
        #expect(String(describing: error).contains("is open to other users"), "\(String(describing: error))")
    }

    @Test("a client's session never reads a path on the server, even one that reached the database", .postgresDatabase)
    func clientLocalSource() async throws {
        let fixture = try await WorkerFixture()
        let job = try await fixture.enqueue(try fixture.squatTrack(reps: 2))
        try await fixture.queue.connection.query("UPDATE sessions SET made_by = 'client' WHERE id = $1", [job.sessionID])
        let finished = try await withWorker(fixture.configuration) { try await fixture.wait(for: [job.id]) }[0]
        #expect(finished.state == .failed && finished.lastError?.contains("a client's source must be an http(s) URL") == true,
                "\(finished.state) \(finished.lastError ?? "")")
    }

    @Test("the reason a tenant reads names no internal address and no path of the worker's", .postgresDatabase)
    func safeReasons() async throws {
        var fixture = try await WorkerFixture()
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        server.respond(to: "/corrupt.mp4", with: .ok(Array(String(repeating: "not a video ", count: 500).utf8)))
        let corrupt = try await fixture.enqueue(server.url("/corrupt.mp4?token=abc"), kind: .analyzeVideo)
        var jobs = try await withWorker(fixture.configuration) { try await fixture.wait(for: [corrupt.id]) }
        let corruptReason = jobs[0].lastError ?? ""
        #expect(jobs[0].state == .failed && corruptReason.contains("/corrupt.mp4") && corruptReason.contains("not a video"), "\(corruptReason)")
        #expect(!corruptReason.contains(fixture.configuration.workDirectory) && !corruptReason.contains("abc"), "\(corruptReason)")

        fixture.configuration.addressPolicy = .publicOnly
        let unreachable = try await fixture.enqueue(server.url("/clip.mp4"), kind: .analyzeVideo)
        jobs = try await withWorker(fixture.configuration) { try await fixture.wait(for: [unreachable.id]) }
        let internalReason = jobs[0].lastError ?? ""
        // The URL is the client's own; what its host resolved to, and how the server sorts addresses, are not.
        #expect(internalReason.contains("not at an address this server may reach") && !internalReason.contains("(loopback)"),
                "\(internalReason)")
    }

    @Test("a track over the size limit fails its job before it is read", .postgresDatabase)
    func oversizedTrack() async throws {
        var fixture = try await WorkerFixture()
        fixture.configuration.maxTrackBytes = 4096
        let job = try await fixture.enqueue(try fixture.squatTrack(reps: 2))
        let finished = try await withWorker(fixture.configuration) { try await fixture.wait(for: [job.id]) }[0]
        #expect(finished.state == .failed && finished.attempts == 1)
        #expect(finished.lastError?.contains("is over the limit of 4096 bytes for a track") == true, "\(finished.lastError ?? "")")
    }

    @Test("an analysis past its memory limit fails its job for good with the reason; the next job runs", .postgresDatabase)
    func memoryLimit() async throws {
        var fixture = try await WorkerFixture()
        // The real `spotter landmarks` on a real video: the engine and models alone need more.
        fixture.configuration.analysisMemoryLimit = 64 << 20
        let video = try await fixture.enqueue(TestAssets.photo("mannequin-squat.mp4"), kind: .analyzeVideo)
        let track = try await fixture.enqueue(try fixture.squatTrack(reps: 2))
        let jobs = try await withWorker(fixture.configuration) { try await fixture.wait(for: [video.id, track.id]) }
        #expect(jobs[0].state == .failed && jobs[0].attempts == 1, "permanent: the same video needs the same memory")
        #expect(jobs[0].lastError == "the analysis needed more than 64 MiB of memory and was stopped", "\(jobs[0].lastError ?? "")")
        #expect(jobs[1].state == .succeeded)
    }

    @Test("a running job can be cancelled; its analysis is stopped", .postgresDatabase)
    func cancelRunning() async throws {
        var fixture = try await WorkerFixture()
        fixture.configuration.executable = try fixture.file("slow.sh", "#!/bin/sh\nsleep 120\n", executable: true)
        let job = try await fixture.enqueue(try fixture.file("slow.mp4", "x"), kind: .analyzeVideo)
        let cancelled = try await withWorker(fixture.configuration) {
            _ = try await fixture.wait(for: [job.id], toBeIn: [.running])
            _ = try await fixture.queue.cancel(job.id, .allOrganizations)
            return try await fixture.wait(for: [job.id])[0]
        }
        #expect(cancelled.state == .cancelled)
    }

    @Test("a cancel reaches the running job's worker at once, not at its next heartbeat", .postgresDatabase)
    func cancelWakesTheWorker() async throws {
        var fixture = try await WorkerFixture()
        fixture.configuration.executable = try fixture.file("slow.sh", "#!/bin/sh\nsleep 1200\n", executable: true)
        fixture.configuration.heartbeatInterval = .seconds(600)
        fixture.configuration.leaseDuration = .seconds(1200)
        let job = try await fixture.enqueue(try fixture.file("slow.mp4", "x"), kind: .analyzeVideo)
        let cancelled = try await withWorker(fixture.configuration) {
            _ = try await fixture.wait(for: [job.id], toBeIn: [.running])
            _ = try await fixture.queue.cancel(job.id, .allOrganizations)
            // Well inside the 600 s heartbeat interval (a loaded CI machine may take a minute or two):
            // only the queue's NOTIFY can have stopped it.
            return try await fixture.wait(for: [job.id], limit: .seconds(180))[0]
        }
        #expect(cancelled.state == .cancelled)
    }

    @Test("on graceful shutdown, a job that does not finish in the grace period goes back to the queue", .postgresDatabase)
    func gracefulShutdown() async throws {
        var fixture = try await WorkerFixture()
        fixture.configuration.executable = try fixture.file("slow.sh", "#!/bin/sh\nsleep 120\n", executable: true)
        fixture.configuration.shutdownGrace = .milliseconds(300)
        let job = try await fixture.enqueue(try fixture.file("slow.mp4", "x"), kind: .analyzeVideo)
        let worker = AnalysisWorker(configuration: fixture.configuration, logger: Logger(label: "test-worker"))
        let group = ServiceGroup(services: [worker], logger: Logger(label: "test-group"))
        let running = Task { try await group.run() }
        _ = try await fixture.wait(for: [job.id], toBeIn: [.running])
        await group.triggerGracefulShutdown()
        try await running.value
        let released = try #require(try await fixture.queue.job(job.id, .allOrganizations))
        #expect(released.state == .queued && released.attempts == 0 && released.leasedBy == nil)
    }
}

@Suite("The analysis worker across a database restart")
struct DatabaseRestartTests {
    @Test("a worker rides out a restart of the database server and goes on claiming")
    func restart() async throws {
        let jobs = try await ScratchPostgresServer.with { server, url in
            let fixture = try await WorkerFixture(databaseURL: url)
            return try await withWorker(fixture.configuration) {
                let before = try await fixture.enqueue(try fixture.squatTrack(reps: 2))
                _ = try await fixture.wait(for: [before.id])
                try await server.stop()
                try await Task.sleep(for: .seconds(1))
                _ = try await server.start()
                let queue = JobQueue(connection: try await PostgresConnection.connect(to: url))
                let after = try await queue.enqueue(AnalysisRequest(
                    organizationID: fixture.organization.id, exercise: "squat", kind: .scoreTrack,
                    sourceURI: try fixture.squatTrack(reps: 3, name: "after.jsonl"), idempotencyKey: "after-restart", origin: .operator)).job
                return try await WorkerFixture.wait(for: [before.id, after.id], on: queue)
            }
        }
        #expect(jobs.map(\.state) == [.succeeded, .succeeded], "\(jobs.map { $0.lastError ?? "" })")
    }
}
