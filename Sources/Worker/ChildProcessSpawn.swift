import CSpawnShims
import Foundation
import Glibc

/// A started child and the read ends of its standard output and error.
struct SpawnedChild: Sendable {
    var processID: pid_t
    var standardOutput: Int32
    var standardError: Int32
}

typealias PipeEnds = (read: Int32, write: Int32)

extension ChildProcess {
    /// Starts the child with `posix_spawn`; see `ChildProcess` for what it inherits.
    func spawn() throws -> SpawnedChild {
        let (output, error) = try makePipes()
        defer { close(output.write); close(error.write) }

        // Each call below fails only for want of memory or for a bad descriptor.
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        var signals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&signals)
        sigfillset(&allSignals)
        var preparations = [
            posix_spawn_file_actions_init(&actions),
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0),
            posix_spawn_file_actions_adddup2(&actions, output.write, 1),
            posix_spawn_file_actions_adddup2(&actions, error.write, 2),
            CSpawn_addCloseFrom(&actions, 3),
            posix_spawnattr_init(&attributes),
            posix_spawnattr_setflags(
                &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)),
            posix_spawnattr_setpgroup(&attributes, 0),
            posix_spawnattr_setsigmask(&attributes, &signals),
            posix_spawnattr_setsigdefault(&attributes, &allSignals),
        ]
        if let workingDirectory { preparations.append(CSpawn_addChdir(&actions, workingDirectory)) }
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }

        let argv = CStrings([executable] + arguments)
        let envp = CStrings(environment.map { "\($0.key)=\($0.value)" })
        var pid: pid_t = 0
        let code = preparations.first { $0 != 0 }
            ?? posix_spawn(&pid, executable, &actions, &attributes, argv.pointers, envp.pointers)
        guard code == 0 else {
            close(output.read)
            close(error.read)
            let place = workingDirectory.map { " in \($0)" } ?? ""
            throw failure("cannot start \(executable)\(place): \(String(cString: strerror(code)))")
        }
        return SpawnedChild(processID: pid, standardOutput: output.read, standardError: error.read)
    }

    /// Pipes for standard output and error, close-on-exec in this process.
    private func makePipes() throws -> (PipeEnds, PipeEnds) {
        var ends: [Int32] = [-1, -1, -1, -1]
        let made = ends.withUnsafeMutableBufferPointer { ends in
            CSpawn_pipe2(ends.baseAddress!, O_CLOEXEC) == 0 && CSpawn_pipe2(ends.baseAddress! + 2, O_CLOEXEC) == 0
        }
        guard made else {
            let reason = String(cString: strerror(errno))
            ends.filter { $0 >= 0 }.forEach { close($0) }
            throw failure("cannot create pipes for \(executable): \(reason)")
        }
        return ((ends[0], ends[1]), (ends[2], ends[3]))
    }

    private func failure(_ message: String) -> ChildProcessError {
        ChildProcessError(executable: executable, message: message)
    }
}

/// A NULL-terminated array of C strings, freed with it.
private final class CStrings {
    let pointers: [UnsafeMutablePointer<CChar>?]

    init(_ strings: [String]) {
        pointers = strings.map { strdup($0) } + [nil]
    }

    deinit {
        pointers.forEach { free($0) }
    }
}
