import Foundation

/// Bytes of a video that is not a local file: an upload in memory, an object in
/// storage, an HTTP body. libav reads it through a custom I/O context.
///
/// Calls come from the decoding thread, one at a time.
public protocol ByteSource: AnyObject, Sendable {
    /// Copies up to `buffer.count` bytes into `buffer`; returns how many, 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    /// The total size in bytes, if known.
    var size: Int64? { get }
    /// Moves to an absolute offset; sources that cannot seek throw. MP4 files
    /// whose index sits at the end need seeking.
    func seek(to offset: Int64) throws
}

/// A video held in memory.
public final class DataByteSource: ByteSource, @unchecked Sendable {
    // Read and moved only by the decoding thread, one call at a time.
    private let data: Data
    private var position = 0

    public init(_ data: Data) {
        self.data = data
    }

    public var size: Int64? { Int64(data.count) }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, data.count - position)
        guard count > 0 else { return 0 }
        data.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: position..<(position + count))
        position += count
        return count
    }

    public func seek(to offset: Int64) throws {
        guard offset >= 0, offset <= data.count else { throw POSIXError(.EINVAL) }
        position = Int(offset)
    }
}
