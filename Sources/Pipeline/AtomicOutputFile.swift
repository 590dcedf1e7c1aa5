import Foundation

/// A file that appears at its path complete or not at all.
///
/// Bytes go to a temporary file beside the destination; `commit()` moves it into
/// place. Released without a commit, the temporary file is removed, so a failed
/// run leaves no partial output behind.
public final class AtomicOutputFile {
    /// The destination path.
    public let path: String
    private let temporaryPath: String
    private let handle: FileHandle
    private var committed = false

    public init(path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        self.path = path
        self.temporaryPath = (directory.isEmpty ? "." : directory) + "/.\(name).\(UUID().uuidString).partial"
        guard FileManager.default.createFile(atPath: temporaryPath, contents: nil) else {
            throw PipelineError(.outputFailed, "\(path): cannot create the output file")
        }
        do {
            self.handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporaryPath))
        } catch {
            try? FileManager.default.removeItem(atPath: temporaryPath)
            throw PipelineError(.outputFailed, "\(path): cannot open the output file", underlying: error)
        }
    }

    deinit {
        if !committed {
            try? handle.close()
            try? FileManager.default.removeItem(atPath: temporaryPath)
        }
    }

    public func write(_ data: Data) throws {
        do {
            try handle.write(contentsOf: data)
        } catch {
            throw PipelineError(.outputFailed, "\(path): cannot write the output file", underlying: error)
        }
    }

    /// Flushes the file to disk and moves it to `path`, replacing what was there.
    public func commit() throws {
        do {
            try handle.synchronize()
            try handle.close()
            if rename(temporaryPath, path) != 0 {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            committed = true
        } catch {
            throw PipelineError(.outputFailed, "\(path): cannot complete the output file", underlying: error)
        }
    }
}
