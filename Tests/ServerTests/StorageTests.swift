import Foundation
import Storage
import Testing
import TestSupport

/// The storage pieces on their own: recognising containers, storing by hash, signing fetch URLs.
@Suite("Storage")
struct StorageTests {
    @Test("real videos are recognised by their first bytes; a PDF, a JPEG and text are not")
    func containers() throws {
        func lead(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(64)) }
        #expect(VideoContainer(lead: try lead(TestAssets.photo("mannequin-squat.mp4"))) == .mp4)
        #expect(VideoContainer(lead: try lead(TestAssets.photo("vtest.avi"))) == .avi)
        #expect(VideoContainer(lead: [0x1A, 0x45, 0xDF, 0xA3, 0x01, 0, 0, 0, 0, 0, 0, 0x1F]) == .matroska)
        #expect(VideoContainer(lead: Array("OggS".utf8) + [0, 2, 0, 0]) == .ogg)
        #expect(VideoContainer(lead: [0x47, 0x40, 0x00, 0x10]) == .mpegts)
        #expect(VideoContainer(lead: Array("%PDF-1.7\n".utf8)) == nil)
        #expect(VideoContainer(lead: try lead(TestAssets.photo("bus.jpg"))) == nil)
        #expect(VideoContainer(lead: Array("RIFF\0\0\0\0WAVE".utf8)) == nil, "RIFF, but audio")
        #expect(VideoContainer(lead: []) == nil && VideoContainer(lead: Array("{\"format\"".utf8)) == nil)
    }

    @Test("the same bytes are stored once under their SHA-256; a discarded upload leaves nothing")
    func contentAddressed() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-store-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try ContentStore(directory: directory)
        func put(_ text: String) throws -> ContentDigest {
            let upload = try store.receive()
            try Data(text.utf8).withUnsafeBytes { try upload.write($0) }
            return try upload.commit()
        }
        let first = try put("abc"), second = try put("abc")
        // SHA-256 of "abc" (FIPS 180-2's example).
        #expect(first.hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" && first == second)
        #expect(try String(contentsOfFile: try #require(store.path(of: first)), encoding: .utf8) == "abc")
        let dropped = try store.receive()
        try Data("partial".utf8).withUnsafeBytes { try dropped.write($0) }
        dropped.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["sha256"])
        #expect(ContentDigest(hex: "xyz") == nil && ContentDigest(hex: String(repeating: "A", count: 64))?.hex == String(repeating: "a", count: 64))
    }

    @Test("a fetch URL is good for its file until it expires, under its key only")
    func signing() throws {
        let signing = StorageSigning(key: Data(repeating: 1, count: 32))
        let digest = try #require(ContentDigest(hex: String(repeating: "b", count: 64)))
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let path = signing.path(for: digest, expires: now.addingTimeInterval(600))
        let match = try #require(path.firstMatch(of: /^\/v1\/storage\/(b{64})\?expires=(\d+)&signature=([A-Za-z0-9_-]+)$/))
        let expires = try #require(Int(match.output.2)), signature = String(match.output.3)
        #expect(signing.isValid(signature, for: digest, expires: expires, now: now))
        #expect(!signing.isValid(signature, for: digest, expires: expires, now: now.addingTimeInterval(601)), "expired")
        #expect(!signing.isValid(signature, for: digest, expires: expires + 1, now: now), "another expiry")
        #expect(!signing.isValid(signature, for: try #require(ContentDigest(hex: String(repeating: "c", count: 64))), expires: expires, now: now))
        #expect(!StorageSigning(key: Data(repeating: 2, count: 32)).isValid(signature, for: digest, expires: expires, now: now), "another key")
        #expect(!signing.isValid("not base64!", for: digest, expires: expires, now: now))
        #expect(throws: StorageError.self) { try StorageSigning.fromEnvironment(["SPOTTER_STORAGE_KEY": "c2hvcnQ="]) }
        #expect(try StorageSigning.fromEnvironment([:]) == nil)
    }
}
