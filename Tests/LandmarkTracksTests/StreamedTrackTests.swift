import Foundation
import LandmarkTracks
import Testing

/// Tracks read from files are streamed: a few chunks of text at a time, with
/// the size limit counted as they come, never the whole file held first.
@Suite("Reading a track file as a stream", .timeLimit(.minutes(2)))
struct StreamedTrackTests {
    typealias Lines = LandmarkTrackReaderTests

    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test("a file of many chunks reads to the same track as its bytes, and errors name the line across chunks")
    func chunks() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // About 3.4 MB: frames cross the 1 MiB chunk boundaries; some lines end in CRLF.
        let frames = (0..<1_000).map { Lines.frame($0 * 33) + ($0 % 7 == 0 ? "\r" : "") }
        let text = Data(([Lines.header] + frames).joined(separator: "\n").utf8)
        let file = directory.appendingPathComponent("long.jsonl")
        try text.write(to: file)
        let streamed = try LandmarkTrack(contentsOfFile: file.path)
        #expect(streamed == (try LandmarkTrack(contentsOf: text, name: file.path)) && streamed.frames.count == 1_000)

        var broken = [Lines.header] + frames
        broken[900] = Lines.frame(900 * 33).replacingOccurrences(of: "0.9]]", with: "0.9]")
        try Data(broken.joined(separator: "\n").utf8).write(to: file)
        let error = #expect(throws: TrackError.self) { try LandmarkTrack(contentsOfFile: file.path) }
        #expect(error?.line == 901, "\(error?.description ?? "")")
    }

    @Test("a stream with no end (a FIFO) is refused when it passes the size limit")
    func endlessStream() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("endless.jsonl").path
        try #require(mkfifo(fifo, 0o600) == 0)
        // Writes frames until the reader goes away (then SIGPIPE ends it).
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = ["-c", #"exec > "$1"; echo "$2"; t=0; while :; do echo "{\"t_ms\":$t,\"poses\":[]}"; t=$((t+1)); done"#,
                            "sh", fifo, Lines.header]
        try writer.run()
        defer { writer.terminate() }
        let error = #expect(throws: TrackError.self) { try LandmarkTrack(contentsOfFile: fifo, maxBytes: 1 << 20) }
        #expect(error?.description.contains("over the limit of 1048576 bytes for a track") == true, "\(error?.description ?? "")")
        writer.waitUntilExit()
    }

    @Test("a line that never ends is refused at the longest line a track may have")
    func endlessLine() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("one-line.jsonl")
        var text = Data((Lines.header + "\n").utf8)
        text.append(Data(repeating: UInt8(ascii: "["), count: LandmarkTrack.maxLineBytes + (2 << 20)))
        try text.write(to: file)
        let error = #expect(throws: TrackError.self) { try LandmarkTrack(contentsOfFile: file.path) }
        #expect(error?.line == 2 && error?.description.contains("a line longer than 4194304 bytes") == true, "\(error?.description ?? "")")
    }
}
