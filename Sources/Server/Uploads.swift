import BlockingWork
import Foundation
import Hummingbird
import LandmarkTracks
import Storage

/// Where uploaded videos and tracks go, how big they may be, and the key that
/// signs the URLs workers fetch them through.
public struct Uploads: Sendable {
    public var store: ContentStore
    public var signing: StorageSigning
    /// The largest video upload (1 GiB by default).
    public var maxVideoBytes = 1 << 30
    /// The largest track upload (64 MiB: about a quarter of an hour with hands); a
    /// track is read whole to check it before its job is made.
    public var maxTrackBytes = 64 << 20

    public init(store: ContentStore, signing: StorageSigning) {
        self.store = store
        self.signing = signing
    }

    /// What an upload must be.
    enum Expected {
        case video, track
    }

    /// Streams `body` into the store, a chunk at a time, refusing it (413) as
    /// soon as it passes its limit and (415) as soon as its first bytes are not
    /// what it claims to be; a track is then read through to check it (422).
    /// Nothing is kept of a refused upload.
    func receive(_ body: RequestBody, as expected: Expected) async throws -> ContentDigest {
        let store = self.store
        let upload = try await offThePool { try store.receive() }
        do {
            try await write(body, into: upload, expected)
        } catch {
            try? await offThePool { upload.discard() }
            throw error
        }
        let digest = try await offThePool { try upload.commit() }
        if expected == .track, let path = store.path(of: digest) {
            do { try await Self.readTrack(path, limit: maxTrackBytes) } catch {
                try? FileManager.default.removeItem(atPath: path)  // the same bytes are refused the same way
                throw error
            }
        }
        return digest
    }

    /// Writes `body` into `upload`, checking its size and first bytes as they arrive.
    private func write(_ body: RequestBody, into upload: ContentUpload, _ expected: Expected) async throws {
        let limit = expected == .video ? maxVideoBytes : maxTrackBytes
        var checked = false
        for try await chunk in body {
            guard upload.count + chunk.readableBytes <= limit else { throw APIProblem.tooLarge(limit) }
            try await offThePool { try chunk.withUnsafeReadableBytes { try upload.write($0) } }
            if !checked && upload.count >= Self.leadNeeded {
                try Self.check(upload.lead, expected)
                checked = true
            }
        }
        guard upload.count > 0 else { throw APIProblem.invalid("the body is empty: send the \(expected == .video ? "video" : "track") itself") }
        if !checked { try Self.check(upload.lead, expected) }
    }

    /// Enough first bytes to tell a container by.
    private static let leadNeeded = 16

    private static func check(_ lead: [UInt8], _ expected: Expected) throws {
        switch expected {
        case .video:
            guard VideoContainer(lead: lead) != nil else {
                throw APIProblem(
                    "unsupported-media-type", .unsupportedMediaType, "The upload is not a video",
                    detail: "its first bytes are not those of MP4, QuickTime, Matroska, WebM, AVI, MPEG-TS, Ogg or FLV")
            }
        case .track:
            guard lead.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{") else {
                throw APIProblem(
                    "unsupported-media-type", .unsupportedMediaType, "The upload is not a landmark track",
                    detail: "a spotter.landmarks/v1 track is JSON Lines starting with its header object")
            }
        }
    }

    /// Reads the stored track through, so that a bad one is refused with its line now rather than failing its job later.
    private static func readTrack(_ path: String, limit: Int) async throws {
        do {
            _ = try await offThePool { try LandmarkTrack(contentsOfFile: path, maxBytes: limit) }
        } catch let error as TrackError {
            let place = error.line > 0 ? "line \(error.line): " : ""
            throw APIProblem("invalid-track", .unprocessableContent, "The landmark track is not valid", detail: place + error.reason)
        }
    }
}
