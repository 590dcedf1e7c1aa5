import Foundation
import Glibc
import Synchronization
import Testing
import Worker

/// Running one program as a child process under a time limit, with real processes.
///
/// Stray processes sleep for 300 s: should a run fail to kill them, it waits
/// for them, and the suite's time limit fails the test.
@Suite("Child processes", .timeLimit(.minutes(10)))
struct ChildProcessTests {
    static func shell(_ script: String, timeLimit: Duration = .seconds(60)) -> ChildProcess {
        ChildProcess(executable: "/bin/sh", arguments: ["-c", script], timeLimit: timeLimit)
    }

    /// A fresh directory for the files a script leaves.
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("child-process-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The process ID a script wrote to `file`, once it is there.
    static func processID(in file: URL) async throws -> pid_t {
        while true {
            if let text = try? String(contentsOf: file, encoding: .utf8), text.hasSuffix("\n"),
               let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                return pid
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Returns once `pid`, not a child of this process, has ended: it is gone,
    /// or a zombie for its parent to reap. (A killed process has closed its
    /// descriptors a moment before it is a zombie.)
    static func waitUntilEnded(_ pid: pid_t) async throws {
        while let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              stat.split(separator: ")").last?.split(separator: " ").first != "Z" {
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test("the exit status is the child's, and the child is reaped", arguments: [0, 1, 64, 65, 69, 70])
    func exitStatus(_ status: Int32) async throws {
        let outcome = try await Self.shell("exit \(status)").run()
        #expect(outcome.termination == .exited(status) && outcome.exitStatus == status && outcome.signal == nil)
        #expect(outcome.succeeded == (status == 0))
        #expect(kill(outcome.processID, 0) == -1 && errno == ESRCH, "no zombie left")
    }

    @Test("standard output is captured byte for byte; standard input is empty")
    func exactOutput() async throws {
        let outcome = try await Self.shell(#"cat; printf 'first\n\000second\r\n'"#).run()
        #expect(outcome.standardOutput == Data("first\n\0second\r\n".utf8) && !outcome.standardOutputTruncated)
        #expect(outcome.failureReason() == nil)
    }

    @Test("megabytes on both pipes are drained; output is kept up to its limit")
    func largeOutput() async throws {
        var child = Self.shell("head -c 4194304 /dev/zero; head -c 3145728 /dev/zero >&2; echo >&2; echo last >&2")
        child.standardOutputLimit = 1 << 20
        let outcome = try await child.run()
        #expect(outcome.termination == .exited(0))
        #expect(outcome.standardOutput == Data(count: 1 << 20) && outcome.standardOutputTruncated)
        #expect(outcome.standardErrorTail == "last\n")
    }

    @Test("environment, working directory and arguments reach the child")
    func environment() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let child = ChildProcess(
            executable: "/bin/sh", arguments: ["-c", #"pwd; echo "$SPOTTER_CHILD_TEST $1""#, "sh", "an argument"],
            environment: ["SPOTTER_CHILD_TEST": "set"], workingDirectory: directory.path, timeLimit: .seconds(60))
        let outcome = try await child.run()
        let expected = "\(directory.resolvingSymlinksInPath().path)\nset an argument\n"
        #expect(String(decoding: outcome.standardOutput, as: UTF8.self) == expected)
    }

    @Test("standard error's lines reach the callback in order; its last error line is the reason")
    func errorLines() async throws {
        let lines = Mutex<[String]>([])
        let script = #"""
            i=1; while [ $i -le 500 ]; do echo "frame $i" >&2; i=$((i + 1)); done
            printf 'spotter: error: /in/clip.mp4: not a video\033[0m\n' >&2; printf 'no newline' >&2; exit 65
            """#
        var child = Self.shell(script)
        child.standardErrorLimit = 1024
        let outcome = try await child.run { line in lines.withLock { $0.append(line) } }
        let expected = (1...500).map { "frame \($0)" } + ["spotter: error: /in/clip.mp4: not a video\u{1B}[0m", "no newline"]
        #expect(lines.withLock { $0 } == expected)
        #expect(outcome.exitStatus == 65)
        #expect(outcome.failureReason() == "/in/clip.mp4: not a video [0m")
        let tail = outcome.standardErrorTail
        #expect(tail.utf8.count <= 1024 && tail.hasPrefix("frame ") && tail.hasSuffix("\u{1B}[0m\nno newline"))
        let first = try #require(tail.split(separator: "\n").first)
        #expect(expected.contains(String(first)), "the tail starts at a whole line")
    }

    @Test("a failure without an error line is told by its status")
    func silentFailure() async throws {
        let outcome = try await Self.shell("echo working >&2; exit 70").run()
        #expect(outcome.failureReason(subject: "the job") == "the job failed with exit status 70")
    }

    @Test("a crash or a kill is told by its signal", arguments: [
        ("SEGV", ProcessSignal.segmentationFault, "the analysis crashed (SIGSEGV)"),
        ("ABRT", .abort, "the analysis crashed (SIGABRT)"),
        ("KILL", .kill, "the analysis was killed (SIGKILL)"),
    ])
    func signalled(_ name: String, _ signal: ProcessSignal, _ reason: String) async throws {
        let outcome = try await Self.shell("ulimit -c 0; kill -\(name) $$").run()
        #expect(outcome.termination == .signalled(signal) && outcome.signal == signal && outcome.exitStatus == nil)
        #expect(outcome.failureReason() == reason)
    }

    @Test("a child past its time limit is stopped with SIGTERM")
    func timeLimit() async throws {
        let outcome = try await Self.shell("sleep 300", timeLimit: .milliseconds(500)).run()
        #expect(outcome.termination == .timedOut(after: .milliseconds(500)) && outcome.signal == .terminate)
        #expect(outcome.failureReason() == "the analysis did not finish within 0.5 s")
    }

    @Test("a child that ignores SIGTERM is killed after the grace period")
    func ignoredTermination() async throws {
        var child = Self.shell("trap '' TERM; sleep 300", timeLimit: .milliseconds(300))
        child.terminationGrace = .milliseconds(300)
        let outcome = try await child.run()
        #expect(outcome.termination == .timedOut(after: .milliseconds(300)) && outcome.signal == .kill)
    }

    @Test("a child whose memory grows past its limit is killed at once; one under it is left alone")
    func memoryLimit() async throws {
        // 400 MiB written (so resident, not just reserved), then a long wait.
        var greedy = Self.shell("exec python3 -c 'import time; b = b\"x\" * (400 << 20); time.sleep(300)'")
        greedy.memoryLimit = 128 << 20
        let outcome = try await greedy.run()
        #expect(outcome.termination == .memoryExceeded(limit: 128 << 20) && outcome.signal == .kill, "\(outcome.standardErrorTail)")
        #expect(outcome.failureReason() == "the analysis needed more than 128 MiB of memory and was stopped")

        var modest = Self.shell("exec python3 -c 'b = b\"x\" * (16 << 20); print(len(b))'")
        modest.memoryLimit = 128 << 20
        let fine = try await modest.run()
        #expect(fine.succeeded && String(decoding: fine.standardOutput, as: UTF8.self) == "\(16 << 20)\n")
    }

    @Test("stopping a child stops its whole process group")
    func grandchildren() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("grandchild")
        let script = "sh -c 'trap \"\" TERM; sleep 300' & echo $! > '\(file.path)'; wait"
        var child = Self.shell(script, timeLimit: .milliseconds(500))
        child.terminationGrace = .milliseconds(300)
        let outcome = try await child.run()
        #expect(outcome.termination == .timedOut(after: .milliseconds(500)))
        try await Self.waitUntilEnded(try await Self.processID(in: file))
    }

    @Test("what a child leaves running when it exits is killed")
    func leftovers() async throws {
        let outcome = try await Self.shell("sleep 300 & echo $!").run()
        #expect(outcome.termination == .exited(0))
        let leftover = try #require(pid_t(String(decoding: outcome.standardOutput, as: UTF8.self).dropLast()))
        try await Self.waitUntilEnded(leftover)
    }

    @Test("cancelling the run stops the child and throws once it is reaped")
    func cancellation() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("child")
        let run = Task { try await Self.shell("echo $$ > '\(file.path)'; sleep 300").run() }
        let pid = try await Self.processID(in: file)
        run.cancel()
        await #expect(throws: CancellationError.self) { try await run.value }
        #expect(kill(pid, 0) == -1 && errno == ESRCH)
    }

    @Test("a program that cannot be started is an error naming it")
    func cannotStart() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("not-executable")
        try Data("#!/bin/sh\n".utf8).write(to: file)
        for (path, reason) in [("/nonexistent/spotter", "No such file or directory"), (file.path, "Permission denied")] {
            let error = await #expect(throws: ChildProcessError.self) {
                try await ChildProcess(executable: path, timeLimit: .seconds(60)).run()
            }
            #expect(error?.description == "cannot start \(path): \(reason)")
        }
    }

    @Test("no descriptor outlives a run, in this process or the child")
    func descriptors() async throws {
        // A descriptor open without close-on-exec, which the child must not get.
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let marker = directory.appendingPathComponent("inherited")
        try Data().write(to: marker)
        let inherited = open(marker.path, O_RDONLY)
        defer { close(inherited) }
        // The pipes the children wrote to, by inode: this process must hold none of them afterwards.
        var pipes: Set<String> = []
        for _ in 0..<50 {
            let outcome = try await Self.shell("readlink /proc/$$/fd/1 /proc/$$/fd/2; ls -l /proc/self/fd").run()
            let output = String(decoding: outcome.standardOutput, as: UTF8.self)
            #expect(!output.contains(marker.path))
            pipes.formUnion(output.split(separator: "\n").prefix(2).map(String.init))
        }
        #expect(pipes.count == 100 && pipes.allSatisfy { $0.hasPrefix("pipe:[") })
        let held = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")
        }
        #expect(pipes.isDisjoint(with: held))
    }
}
