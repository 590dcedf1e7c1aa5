import AtomicFiles
import Contracts
import Crypto
import Foundation

/// Uploaded videos and tracks in a directory, each named by the SHA-256 of its
/// bytes (`sha256/ab/abcd…`): the same bytes are stored once, and a file is in
/// place whole or not at all (written beside its place, flushed, renamed).
/// Its methods block on the file system: call them off the cooperative pool.
public struct ContentStore: Sendable {
    public let directory: String

    /// Makes the directory (and its parents) when missing.
    public init(directory: String) throws(StorageError) {
        self.directory = directory
        do {
            try FileManager.default.createDirectory(atPath: directory + "/sha256", withIntermediateDirectories: true)
        } catch {
            throw StorageError("cannot make the storage directory \(directory)")
        }
    }

    /// Where the file with `digest` is, when it is stored.
    public func path(of digest: ContentDigest) -> String? {
        let path = place(of: digest)
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// A new upload, written as it arrives; dropped without `commit()` it leaves nothing.
    public func receive() throws(StorageError) -> ContentUpload {
        do {
            return ContentUpload(file: try AtomicFile(path: directory + "/upload"), store: self)
        } catch {
            throw StorageError("cannot write into the storage directory: \(error.description)")
        }
    }

    func place(of digest: ContentDigest) -> String {
        "\(directory)/sha256/\(digest.hex.prefix(2))/\(digest.hex)"
    }
}

/// One upload on its way into a `ContentStore`: bytes are written and hashed
/// as they come; the first ones are kept for recognising the container.
///
/// `@unchecked Sendable`: an upload belongs to the one request that receives
/// it, which writes it one chunk after another (each call off the cooperative
/// pool, on whichever thread); it is handed between threads, never shared.
public final class ContentUpload: @unchecked Sendable {
    private let file: AtomicFile
    private let store: ContentStore
    private var hash = SHA256()
    /// Bytes written so far.
    public private(set) var count = 0
    /// The first bytes written (up to `leadLength`).
    public private(set) var lead: [UInt8] = []
    /// How many first bytes are kept in `lead`.
    public static let leadLength = 64

    init(file: AtomicFile, store: ContentStore) {
        self.file = file
        self.store = store
    }

    /// Appends `bytes` to the file.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(StorageError) {
        do { try file.write(bytes) } catch { throw StorageError("cannot write an upload: \(error.description)") }
        hash.update(bufferPointer: bytes)
        if lead.count < Self.leadLength { lead += bytes.prefix(Self.leadLength - lead.count) }
        count += bytes.count
    }

    /// Removes what was written (a refused upload).
    public func discard() {
        file.discard()
    }

    /// Flushes the file and moves it to its place in the store (where the same
    /// bytes may be already: then this copy is dropped); its digest.
    public func commit() throws(StorageError) -> ContentDigest {
        let digest = ContentDigest(bytes: hash.finalize())
        let destination = store.place(of: digest)
        do {
            try FileManager.default.createDirectory(
                atPath: (destination as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try file.commit(as: destination)
        } catch {
            throw StorageError("cannot store an upload: \(error)")
        }
        return digest
    }
}

/// Storage that failed, for the operator's log (it names the storage
/// directory); the API answers a plain internal error instead.
public struct StorageError: DescribedFailure, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }

    public var failureKind: FailureKind { .cannotCreate }
    public var safeMessage: String { description }
}
