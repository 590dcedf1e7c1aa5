import Foundation
import TestSupport
import Testing

/// `spotter landmarks`, run as a user runs it (contracts §1 and §2).
@Suite("spotter landmarks")
struct LandmarksCommandTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// The files in the scratch directory, hidden ones included.
    func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    func track(_ data: Data) throws -> (header: [String: Any], frames: [[String: Any]]) {
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        let objects = try lines.map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let header = try #require(objects.first)
        return (header, Array(objects.dropFirst()))
    }

    @Test("MediaPipe's own log lines are Spotter's debug lines: hidden by default, shown at SPOTTER_LOG_LEVEL=debug")
    func quietEngine() async throws {
        let quiet = try await SpotterProcess.run(["landmarks", TestAssets.photo("bus.jpg"), "--out", path("quiet.jsonl")])
        #expect(quiet.status == 0, "\(quiet.standardError)")
        let lines = quiet.standardError.split(separator: "\n")
        #expect(lines.count == 1 && lines.allSatisfy { $0.contains(" info spotter: ") }, "only Spotter's own summary: \(lines)")

        let debug = try await SpotterProcess.run(
            ["landmarks", TestAssets.photo("bus.jpg"), "--out", path("debug.jsonl")], environment: ["SPOTTER_LOG_LEVEL": "debug"])
        #expect(debug.status == 0, "\(debug.standardError)")
        let debugLines = debug.standardError.split(separator: "\n")
        #expect(debugLines.contains { $0.contains(" debug mediapipe: ") && $0.contains("XNNPACK") }, "\(debugLines)")
        #expect(debugLines.contains { $0.contains(" info spotter: ") })
    }

    @Test("an error is still said on standard error, before the exit, with the engine's lines routed")
    func errorsPassThrough() async throws {
        let outcome = try await SpotterProcess.run(["landmarks", path("missing.mp4")])
        #expect(outcome.status == 65)
        #expect(outcome.standardError == "spotter: error: \(path("missing.mp4")): no such file\n")
    }

    @Test("as the worker's child, it stops at once when its worker has gone, and dies with its worker")
    func exitsWithItsWorker() async throws {
        let orphan = try await SpotterProcess.run(
            ["landmarks", TestAssets.photo("bus.jpg"), "--out", path("orphan.jsonl")], environment: ["SPOTTER_EXIT_WITH_PARENT": "1"])
        #expect(orphan.status == 69 && orphan.standardError.contains("has gone"), "\(orphan.standardError)")
        #expect(try leftovers().isEmpty)

        // A shell starts the analysis as its child, then exits: the analysis must end too.
        let script = """
            SPOTTER_EXIT_WITH_PARENT=$$ "$0" landmarks "$1" --out "$2" 2>/dev/null &
            echo $!
            sleep 1
            """
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", script, SpotterProcess.executable.path, TestAssets.photo("vtest.avi"), path("vtest.jsonl")]
        let output = Pipe()
        shell.standardOutput = output
        try shell.run()
        shell.waitUntilExit()
        let child = try #require(Int32(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        // Running, or stopped but not yet reaped by its new parent (a zombie counts as gone).
        func running() -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            return stat[stat.index(close, offsetBy: 2)] != "Z"
        }
        var alive = true
        for _ in 0..<100 where alive {
            alive = running()
            if alive { usleep(100_000) }
        }
        #expect(!alive, "the analysis (pid \(child)) outlived the process that started it")
        #expect(!FileManager.default.fileExists(atPath: path("vtest.jsonl")), "a track cut short is never left behind")
    }

    @Test("as the worker's child, it has no network: a namespace of its own from its first instruction (or it says it could not)")
    func leavesTheNetwork() throws {
        let child = Process()
        child.executableURL = SpotterProcess.executable
        child.arguments = ["landmarks", TestAssets.photo("vtest.avi"), "--out", path("isolated.jsonl")]
        child.environment = ProcessInfo.processInfo.environment.merging(
            ["SPOTTER_EXIT_WITH_PARENT": String(getpid()), "SPOTTER_NO_NETWORK": "1"]) { $1 }
        let errors = Pipe()
        child.standardError = errors
        try child.run()
        let own = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/ns/net")
        // Until it has exec'd, the child is still this process's fork, in this namespace: wait up to 5 s for it to leave.
        var its: String?
        for _ in 0..<250 where (its == nil || its == own) && child.isRunning {
            usleep(20_000)
            its = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(child.processIdentifier)/ns/net")
        }
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(child.processIdentifier)/task")) ?? []
        let threadNamespaces = Set(threads.compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(child.processIdentifier)/task/\($0)/ns/net")
        })
        child.terminate()
        child.waitUntilExit()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        if said.contains("the analysis keeps the network") { return }  // this host allows no namespace: it is said
        #expect(its != nil && its != own, "the child shares this process's network namespace \(own): \(said)")
        #expect(!threadNamespaces.contains(own), "a thread of the child is still on the network: \(threadNamespaces)")
    }

    @Test("--delegate gpu runs the models on a GPU where there is one; without one it exits 69 saying what is missing")
    func gpuDelegate() async throws {
        let out = path("gpu.jsonl")
        let outcome = try await SpotterProcess.run(["landmarks", TestAssets.photo("bus.jpg"), "--delegate", "gpu", "--out", out])
        // A GPU MediaPipe can use shows itself as an NVIDIA device or a DRM render node; CI machines have neither.
        let gpu = FileManager.default.fileExists(atPath: "/dev/nvidia0") || FileManager.default.fileExists(atPath: "/dev/dri/renderD128")
        if gpu {
            #expect(outcome.status == 0 && FileManager.default.fileExists(atPath: out), "\(outcome.standardError)")
        } else {
            #expect(outcome.status == 69, "\(outcome.standardError)")
            let said = outcome.errorLines.first ?? ""
            #expect(said.contains("cannot run a pose landmarker on the GPU") && said.contains("EGL") && said.contains("--delegate cpu"), "\(said)")
            #expect(try leftovers().isEmpty, "no track written")
        }
    }

    @Test("an image gives a one-frame track in the file named by --out, and nothing on stdout")
    func imageToFile() async throws {
        let out = path("bus.jsonl")
        let outcome = try await SpotterProcess.run(["landmarks", TestAssets.photo("bus.jpg"), "--hands", "--out", out])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.isEmpty)
        #expect(try leftovers() == ["bus.jsonl"])
        let (header, frames) = try track(try Data(contentsOf: URL(fileURLWithPath: out)))
        #expect(header["format"] as? String == "spotter.landmarks/v1")
        #expect(header["width"] as? Int == 810 && header["height"] as? Int == 1080)
        #expect(header["fps"] as? Double == 0 && header["source"] as? String == TestAssets.photo("bus.jpg"))
        try #require(frames.count == 1)
        #expect(frames[0]["t_ms"] as? Int == 0)
        let poses = try #require(frames[0]["poses"] as? [[String: Any]])
        let landmarks = try #require(poses.first?["landmarks"] as? [[Double]])
        let world = try #require(poses.first?["world"] as? [[Double]])
        #expect(poses.count == 1 && landmarks.count == 33 && world.count == 33)
        #expect(landmarks.allSatisfy { $0.count == 5 } && world.allSatisfy { $0.count == 5 })
        #expect((frames[0]["hands"] as? [Any])?.isEmpty == true, "--hands adds hands, none on this photo")
    }

    @Test("without --out the track goes to stdout; --hands finds the visible hand")
    func handsToStandardOutput() async throws {
        let outcome = try await SpotterProcess.run(["landmarks", TestAssets.photo("messi5.jpg"), "--hands"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let (header, frames) = try track(outcome.standardOutput)
        #expect(header["width"] as? Int == 548)
        let hands = try #require(frames.first?["hands"] as? [[String: Any]])
        try #require(hands.count == 1)
        #expect(["Left", "Right"].contains(hands[0]["handedness"] as? String ?? ""))
        #expect((hands[0]["landmarks"] as? [[Double]])?.count == 21)
        #expect((hands[0]["world"] as? [[Double]])?.allSatisfy { $0.count == 3 } == true)
    }

    @Test("without --hands the frames carry no hands; nobody in the photo gives poses []")
    func nobody() async throws {
        let outcome = try await SpotterProcess.run(["landmarks", TestAssets.photo("coffee.png"), "--num-poses", "2"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let (_, frames) = try track(outcome.standardOutput)
        #expect((frames.first?["poses"] as? [Any])?.isEmpty == true)
        #expect(frames.first?["hands"] == nil)
    }

    @Test(
        "unreadable input exits 65 with one line naming the file, and leaves no output",
        arguments: ["missing.jpg", "truncated.jpg", "notes.txt", "empty.png"])
    func badInput(_ name: String) async throws {
        let input = path(name)
        switch name {
        case "truncated.jpg":
            let jpeg = try Data(contentsOf: URL(fileURLWithPath: TestAssets.photo("bus.jpg")))
            try jpeg.prefix(jpeg.count / 3).write(to: URL(fileURLWithPath: input))
        case "notes.txt": try Data("squat 5x5\n".utf8).write(to: URL(fileURLWithPath: input))
        case "empty.png": try Data().write(to: URL(fileURLWithPath: input))
        default: break
        }
        let before = try leftovers()
        let outcome = try await SpotterProcess.run(["landmarks", input, "--out", path("track.jsonl")])
        #expect(outcome.status == 65)
        #expect(outcome.errorLines.count == 1, "\(outcome.standardError)")
        #expect(outcome.errorLines.first?.contains(input) == true, "\(outcome.standardError)")
        #expect(try leftovers() == before, "no partial output")
    }

    @Test("a missing engine or model exits 69 with one line naming it and the command that installs it")
    func missingInstallation() async throws {
        for (environment, missing) in [
            (["SPOTTER_MEDIAPIPE_LIBRARY": path("libmediapipe.so")], path("libmediapipe.so")),
            (["SPOTTER_MODEL_DIR": directory.path], path("pose_landmarker_full.task")),
        ] {
            let outcome = try await SpotterProcess.run(
                ["landmarks", TestAssets.photo("bus.jpg"), "--out", path("track.jsonl")], environment: environment)
            #expect(outcome.status == 69)
            #expect(outcome.standardError.split(separator: "\n").count == 1, "\(outcome.standardError)")
            let line = try #require(outcome.errorLines.first)
            #expect(line.contains(missing) && line.contains("ops/setup"), "\(line)")
            #expect(!FileManager.default.fileExists(atPath: path("track.jsonl")))
        }
    }

    @Test("bad usage exits 64", arguments: [
        ["landmarks"], ["landmarks", "x.jpg", "--num-poses", "0"], ["landmarks", "x.jpg", "--hand-model", "huge"],
    ])
    func badUsage(_ arguments: [String]) async throws {
        #expect(try await SpotterProcess.run(arguments).status == 64)
    }
}
