import Contracts
import Foundation
import Glibc

/// The worker's scratch space (downloads, tracks) holds tenants' videos: it is
/// made private (0700) when missing, and a directory that exists is used only
/// if this user owns it and nobody else may enter it.
enum ScratchDirectory {
    struct Refused: DescribedFailure, CustomStringConvertible {
        var path: String
        var reason: String
        var failureKind: FailureKind { .unavailable }
        var safeMessage: String { "the work directory \(path) \(reason)" }
        var description: String { safeMessage }
    }

    /// Makes `path` (and its parents) if missing, then checks it as above.
    static func prepare(_ path: String) throws {
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            if errno == ENOENT {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
                chmod(path, 0o700)
            } else {
                throw Refused(path: path, reason: "cannot be made: \(String(cString: strerror(errno)))")
            }
        }
        var status = stat()
        guard lstat(path, &status) == 0 else {
            throw Refused(path: path, reason: "cannot be read: \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw Refused(path: path, reason: "is not a directory") }
        guard status.st_uid == geteuid() else {
            throw Refused(path: path, reason: "belongs to user \(status.st_uid), not this worker's (\(geteuid()))")
        }
        guard status.st_mode & 0o077 == 0 else {
            throw Refused(path: path, reason: "is open to other users (mode \(String(status.st_mode & 0o777, radix: 8))); make it 0700")
        }
    }
}
