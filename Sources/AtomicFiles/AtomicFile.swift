#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// A download's file while it arrives: written beside its destination under a
/// hidden temporary name, moved into place by `commit`, and removed on deinit
/// if it never was, so that a failed download leaves nothing behind.
final class PartialFile {
    let destination: String
    let temporaryPath: String
    private var descriptor: Int32
    private var committed = false

    /// Creates the temporary file in the destination's directory, so that the
    /// final rename stays on one file system.
    init(beside destination: String) throws(FileFailure) {
        let slash = destination.lastIndex(of: "/")
        let directory = slash.map { String(destination[...$0]) } ?? ""
        let name = slash.map { String(destination[destination.index(after: $0)...]) } ?? destination
        let suffix = String(UInt64.random(in: .min ... .max), radix: 16)
        temporaryPath = "\(directory).\(name).\(suffix).part"
        self.destination = destination
        descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileFailure("cannot create a file beside \(destination)") }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        if !committed { unlink(temporaryPath) }
    }

    func append(_ bytes: UnsafeRawBufferPointer) throws(FileFailure) {
        var remaining = bytes
        while !remaining.isEmpty {
            let written = write(descriptor, remaining.baseAddress, remaining.count)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw FileFailure("cannot write \(temporaryPath)") }
            remaining = UnsafeRawBufferPointer(rebasing: remaining[written...])
        }
    }

    /// Flushes the file to disk and renames it to the destination, replacing
    /// any file there.
    func commit() throws(FileFailure) {
        guard fsync(descriptor) == 0 else { throw FileFailure("cannot flush \(temporaryPath)") }
        let closed = close(descriptor)
        descriptor = -1
        guard closed == 0 else { throw FileFailure("cannot close \(temporaryPath)") }
        guard rename(temporaryPath, destination) == 0 else {
            throw FileFailure("cannot move \(temporaryPath) to \(destination)")
        }
        committed = true
    }

    /// A failed file operation: what was attempted, and the system's reason
    /// taken from errno when the failure is created.
    struct FileFailure: Error, CustomStringConvertible {
        let description: String
        init(_ attempt: String) {
            description = "\(attempt): \(String(cString: strerror(errno)))"
        }
    }
}
