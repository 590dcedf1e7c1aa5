import Contracts
import Foundation

#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// A file that appears at its path complete or not at all: an output, or a
/// download while it arrives.
///
/// Bytes go to a hidden temporary file beside the destination (one file
/// system, so the final rename is atomic); `commit()` flushes it and moves it
/// into place. Released without a commit, the temporary file is removed, so a
/// failed run leaves nothing behind.
public final class AtomicFile {
    /// The destination path.
    public let path: String
    let temporaryPath: String
    private var descriptor: Int32
    private var committed = false

    public init(path: String) throws(Failure) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let suffix = String(UInt64.random(in: .min ... .max), radix: 16)
        temporaryPath = "\(directory).\(name).\(suffix).part"
        self.path = path
        descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(path: path, "cannot create a file beside \(path)") }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        if !committed { unlink(temporaryPath) }
    }

    /// Appends `bytes`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
        var remaining = bytes
        while !remaining.isEmpty {
            let written = systemWrite(descriptor, remaining.baseAddress, remaining.count)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw Failure(path: path, "cannot write \(temporaryPath)") }
            remaining = UnsafeRawBufferPointer(rebasing: remaining[written...])
        }
    }

    /// Appends `data`.
    public func write(_ data: Data) throws(Failure) {
        var failure: Failure?
        data.withUnsafeBytes { bytes in
            do throws(Failure) { try write(bytes) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Removes what was written, at once rather than when this file is released
    /// (which a task still holding it may delay); later writes and commits fail.
    public func discard() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        if !committed { unlink(temporaryPath) }
        committed = true
    }

    /// Flushes the file to disk and renames it to `path`, replacing any file there.
    public func commit() throws(Failure) {
        try commit(as: path)
    }

    /// Flushes the file to disk and renames it to `destination`, a path on the
    /// same file system chosen once the contents are known (a name from their
    /// hash), replacing any file there.
    public func commit(as destination: String) throws(Failure) {
        guard fsync(descriptor) == 0 else { throw Failure(path: path, "cannot flush \(temporaryPath)") }
        let closed = close(descriptor)
        descriptor = -1
        guard closed == 0 else { throw Failure(path: path, "cannot close \(temporaryPath)") }
        guard rename(temporaryPath, destination) == 0 else {
            throw Failure(path: destination, "cannot move \(temporaryPath) to \(destination)")
        }
        committed = true
    }

    /// A failed file operation: the destination, what was attempted, and the
    /// system's reason taken from errno when the failure is created.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The destination path.
        public let path: String
        public let description: String

        init(path: String, _ attempt: String) {
            self.path = path
            description = "\(attempt): \(String(cString: strerror(errno)))"
        }
    }
}

#if canImport(Glibc)
private let systemWrite = Glibc.write
#else
private let systemWrite = Darwin.write
#endif

extension AtomicFile.Failure: DescribedFailure {
    public var failureKind: FailureKind { .cannotCreate }
    public var safeMessage: String { description }
}
