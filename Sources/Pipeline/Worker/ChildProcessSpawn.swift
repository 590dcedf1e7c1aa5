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
        guard let gnu = GNUExtensions.resolved else {
            throw failure("this C library lacks pipe2 or posix_spawn_file_actions_addclosefrom_np (glibc 2.34 or later)")
        }
        let (output, error) = try makePipes(gnu)
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
            gnu.addClosefrom(&actions, 3),
            posix_spawnattr_init(&attributes),
            posix_spawnattr_setflags(
                &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)),
            posix_spawnattr_setpgroup(&attributes, 0),
            posix_spawnattr_setsigmask(&attributes, &signals),
            posix_spawnattr_setsigdefault(&attributes, &allSignals),
        ]
        if let workingDirectory { preparations.append(gnu.addChdir(&actions, workingDirectory)) }
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }

        let argv = CStrings([executable] + arguments)
        let environment = ProcessInfo.processInfo.environment.merging(self.environment) { $1 }
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
    private func makePipes(_ gnu: GNUExtensions) throws -> (PipeEnds, PipeEnds) {
        var ends: [Int32] = [-1, -1, -1, -1]
        let made = ends.withUnsafeMutableBufferPointer { ends in
            gnu.pipe2(ends.baseAddress!, O_CLOEXEC) == 0 && gnu.pipe2(ends.baseAddress! + 2, O_CLOEXEC) == 0
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

/// The GNU extensions of glibc that a child's start needs. Swift's Glibc
/// module is built without `_GNU_SOURCE`, so they are looked up at run time.
struct GNUExtensions: Sendable {
    typealias Pipe2 = @Sendable @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    typealias AddClosefrom = @Sendable @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    typealias AddChdir = @Sendable @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    /// Creates a pipe with flags such as `O_CLOEXEC`, atomically.
    var pipe2: Pipe2
    /// Closes every descriptor from the given one up in the child.
    var addClosefrom: AddClosefrom
    /// Changes the child's working directory.
    var addChdir: AddChdir

    static let resolved: GNUExtensions? = {
        let program = dlopen(nil, RTLD_NOW)
        guard let pipe2 = dlsym(program, "pipe2"),
              let addClosefrom = dlsym(program, "posix_spawn_file_actions_addclosefrom_np"),
              let addChdir = dlsym(program, "posix_spawn_file_actions_addchdir_np")
        else { return nil }
        return GNUExtensions(
            pipe2: unsafeBitCast(pipe2, to: Pipe2.self),
            addClosefrom: unsafeBitCast(addClosefrom, to: AddClosefrom.self),
            addChdir: unsafeBitCast(addChdir, to: AddChdir.self))
    }()
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

/// Reads `descriptor` to its end, handing `consume` each chunk, and closes it.
func drain(_ descriptor: Int32, _ consume: (UnsafeRawBufferPointer) -> Void) {
    defer { close(descriptor) }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 1)
    defer { buffer.deallocate() }
    while true {
        let count = read(descriptor, buffer.baseAddress, buffer.count)
        if count > 0 {
            consume(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        } else if count == 0 || errno != EINTR {
            return
        }
    }
}

/// The start of standard output, up to a limit.
struct OutputCapture: Sendable {
    let limit: Int
    var data = Data()
    var truncated = false

    mutating func take(_ chunk: UnsafeRawBufferPointer) {
        let room = max(limit - data.count, 0)
        if chunk.count > room { truncated = true }
        data.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk.prefix(room)))
    }
}

/// The end of standard error, and its lines as they come.
struct ErrorTail {
    let limit: Int
    let onLine: (@Sendable (String) -> Void)?
    private var tail: [UInt8] = []
    private var received = 0
    private var line: [UInt8] = []

    init(limit: Int, onLine: (@Sendable (String) -> Void)?) {
        self.limit = limit
        self.onLine = onLine
    }

    mutating func take(_ chunk: UnsafeRawBufferPointer) {
        received += chunk.count
        tail.append(contentsOf: chunk)
        if tail.count > 2 * limit { tail.removeFirst(tail.count - limit) }
        guard let onLine else { return }
        var rest = chunk[...]
        while let newline = rest.firstIndex(of: UInt8(ascii: "\n")) {
            line.append(contentsOf: rest[..<newline].prefix(limit - line.count))
            onLine(String(decoding: line, as: UTF8.self))
            line.removeAll(keepingCapacity: true)
            rest = rest[(newline + 1)...]
        }
        line.append(contentsOf: rest.prefix(limit - line.count))
    }

    /// Passes on an unfinished last line; the kept end, from the start of a line.
    mutating func finish() -> String {
        if !line.isEmpty { onLine?(String(decoding: line, as: UTF8.self)) }
        var kept = tail.suffix(limit)
        if received > limit, let newline = kept.firstIndex(of: UInt8(ascii: "\n")) {
            kept = kept[(newline + 1)...]
        }
        return String(decoding: kept, as: UTF8.self)
    }
}
