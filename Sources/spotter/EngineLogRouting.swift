import Foundation
import Glibc
import Logging
import Synchronization

/// Sends MediaPipe's own log lines to Spotter's logger instead of the user's terminal.
///
/// The engine (its absl logging and TensorFlow Lite) writes warnings that mean
/// nothing to a user — "Feedback manager requires a model with a single
/// signature…" — straight to the process's standard error, from its own
/// threads, and exports none of its logging controls. So for commands that run
/// the engine, descriptor 2 becomes a pipe read by one thread: lines in the
/// engine's formats become `mediapipe` log lines (debug; errors stay errors),
/// shown only at the command's log level, and everything else — Spotter's own
/// log lines, error messages, argument errors — is passed on to the real
/// standard error unchanged, as it arrives. The reader writes only to the real
/// standard error, never into its own pipe. At exit the pipe is closed and
/// drained before the process ends, so no line is lost.
enum EngineLogRouting {
    private static let installed = Mutex(false)
    private static let drained = DispatchSemaphore(value: 0)
    nonisolated(unsafe) private static var original: Int32 = -1

    /// Routes standard error as described above, showing the engine's lines at
    /// `level` or above; only the first call does anything.
    static func install(level: Logger.Level) {
        let first = installed.withLock { installed in
            defer { installed = true }
            return !installed
        }
        guard first else { return }
        var ends: [Int32] = [-1, -1]
        let saved = dup(2)
        guard saved >= 0, pipe(&ends) == 0 else {
            if saved >= 0 { close(saved) }
            return  // Standard error stays as it is: noisier, never lost.
        }
        for descriptor in [saved, ends[0]] { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        fflush(nil)
        dup2(ends[1], 2)
        close(ends[1])
        original = saved
        let reader = ends[0]
        Thread.detachNewThread {
            forwardLines(from: reader, to: saved, level: level)
            drained.signal()
        }
        atexit {
            fflush(nil)
            dup2(EngineLogRouting.original, 2)  // closes the pipe's last write end: the reader drains it and stops
            _ = EngineLogRouting.drained.wait(timeout: .now() + 2)
        }
    }

    /// Whether `line` is in one of the engine's log formats: absl's
    /// `W0000 00:00:1795453952.069130  2126 file.cc:121] …`, or TensorFlow Lite's
    /// and absl's plain `INFO: …`, `WARNING: …`, `ERROR: …`.
    static func engineSeverity(of line: Substring) -> Logger.Level? {
        let bytes = Array(line.utf8.prefix(9))
        if bytes.count >= 6, let letter = bytes.first, "IWEF".utf8.contains(letter),
           bytes[1...4].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), bytes[5] == UInt8(ascii: " ") {
            return letter == UInt8(ascii: "E") || letter == UInt8(ascii: "F") ? .error : .debug
        }
        if line.hasPrefix("INFO: ") || line.hasPrefix("WARNING: ") { return .debug }
        if line.hasPrefix("ERROR: ") { return .error }
        return nil
    }

    private static func forwardLines(from reader: Int32, to output: Int32, level: Logger.Level) {
        var pending: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 << 10, alignment: 1)
        defer { buffer.deallocate(); close(reader) }
        func emit(_ line: ArraySlice<UInt8>) {
            let text = String(decoding: line, as: UTF8.self)
            if let severity = engineSeverity(of: text.dropLast(text.hasSuffix("\n") ? 1 : 0)) {
                guard severity >= level else { return }
                let stamp = Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: false).timeZone(separator: .omitted))
                Array("\(stamp) \(severity) mediapipe: \(text.trimmingCharacters(in: .newlines))\n".utf8).withUnsafeBytes { writeAll($0, to: output) }
            } else {
                line.withUnsafeBytes { bytes in writeAll(bytes, to: output) }
            }
        }
        while true {
            let count = read(reader, buffer.baseAddress, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            pending.append(contentsOf: buffer[..<count])
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                emit(pending[...newline])
                pending.removeFirst(newline + 1)
            }
        }
        if !pending.isEmpty { emit(pending[...]) }
    }

    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) {
        var rest = bytes
        while !rest.isEmpty {
            let written = write(descriptor, rest.baseAddress, rest.count)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            rest = UnsafeRawBufferPointer(rebasing: rest[written...])
        }
    }
}
