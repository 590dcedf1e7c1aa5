internal import CFFmpeg
internal import CFFmpegShims
import Foundation

/// An AVIOContext that reads a `ByteSource`: it owns the context and its buffer
/// and keeps the source alive while libav holds a pointer to it.
final class CustomIO {
    let context: UnsafeMutablePointer<AVIOContext>
    private let source: Unmanaged<SourceBox>

    /// The source, the interruption it honours (libav does not check interrupt
    /// callbacks on custom I/O), and the last error it threw, for messages.
    final class SourceBox {
        let source: any ByteSource
        let interruption: Interruption
        var lastError: (any Error)?
        init(_ source: any ByteSource, interruption: Interruption) {
            self.source = source
            self.interruption = interruption
        }
    }

    private static let bufferSize: Int32 = 64 * 1024

    init(source: any ByteSource, interruption: Interruption) throws {
        let box = Unmanaged.passRetained(SourceBox(source, interruption: interruption))
        guard let buffer = av_malloc(Int(Self.bufferSize)) else {
            box.release()
            throw MediaError(.unreadable, "cannot allocate an I/O buffer")
        }
        guard let context = avio_alloc_context(
            buffer.assumingMemoryBound(to: UInt8.self), Self.bufferSize, 0, box.toOpaque(),
            { opaque, buffer, size in CustomIO.read(opaque, buffer, size) }, nil,
            { opaque, offset, whence in CustomIO.seek(opaque, offset, whence) })
        else {
            av_free(buffer)
            box.release()
            throw MediaError(.unreadable, "cannot allocate an I/O context")
        }
        self.context = context
        self.source = box
    }

    deinit {
        // libav may have replaced the buffer; free the one the context holds now.
        var context: UnsafeMutablePointer<AVIOContext>? = self.context
        av_freep(&context!.pointee.buffer)
        avio_context_free(&context)
        source.release()
    }

    /// The last error the source threw, if any.
    var sourceError: (any Error)? { source.takeUnretainedValue().lastError }

    private static func read(_ opaque: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ size: Int32) -> Int32 {
        let box = Unmanaged<SourceBox>.fromOpaque(opaque!).takeUnretainedValue()
        if box.interruption.shouldStop { return CFFmpeg_errorExit() }
        do {
            let count = try box.source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(size)))
            return count == 0 ? CFFmpeg_errorEndOfFile() : Int32(count)
        } catch {
            box.lastError = error
            return -EIO
        }
    }

    private static func seek(_ opaque: UnsafeMutableRawPointer?, _ offset: Int64, _ whence: Int32) -> Int64 {
        let box = Unmanaged<SourceBox>.fromOpaque(opaque!).takeUnretainedValue()
        if whence & AVSEEK_SIZE != 0 { return box.source.size ?? -1 }
        let target: Int64
        switch whence & ~AVSEEK_FORCE {
        case SEEK_SET: target = offset
        case SEEK_END:
            guard let size = box.source.size else { return -1 }
            target = size + offset
        default: return -1  // SEEK_CUR: libav resolves it to SEEK_SET itself.
        }
        do {
            try box.source.seek(to: target)
            return target
        } catch {
            box.lastError = error
            return -1
        }
    }
}
