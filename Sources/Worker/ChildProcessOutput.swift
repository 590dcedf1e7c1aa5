import Foundation
import Glibc

/// Reads `descriptor` to its end, handing `consume` each chunk, and closes it.
func drain(_ descriptor: Int32, _ consume: (UnsafeRawBufferPointer) -> Void) {
    defer { close(descriptor) }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 1)
    defer { buffer.deallocate() }
    while true {
        let count = read(descriptor, buffer.baseAddress, buffer.count)
        if count > 0 {
            consume(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        } else if count == 0 || errno != EINTR {
            return
        }
    }
}

/// The start of standard output, up to a limit.
struct OutputCapture: Sendable {
    let limit: Int
    var data = Data()
    var truncated = false

    mutating func take(_ chunk: UnsafeRawBufferPointer) {
        let room = max(limit - data.count, 0)
        if chunk.count > room { truncated = true }
        data.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk.prefix(room)))
    }
}

/// The end of standard error, and its lines as they come.
struct ErrorTail {
    let limit: Int
    let onLine: (@Sendable (String) -> Void)?
    private var tail: [UInt8] = []
    private var received = 0
    private var line: [UInt8] = []

    init(limit: Int, onLine: (@Sendable (String) -> Void)?) {
        self.limit = limit
        self.onLine = onLine
    }

    mutating func take(_ chunk: UnsafeRawBufferPointer) {
        received += chunk.count
        tail.append(contentsOf: chunk)
        if tail.count > 2 * limit { tail.removeFirst(tail.count - limit) }
        guard let onLine else { return }
        var rest = chunk[...]
        while let newline = rest.firstIndex(of: UInt8(ascii: "\n")) {
            line.append(contentsOf: rest[..<newline].prefix(limit - line.count))
            onLine(String(decoding: line, as: UTF8.self))
            line.removeAll(keepingCapacity: true)
            rest = rest[(newline + 1)...]
        }
        line.append(contentsOf: rest.prefix(limit - line.count))
    }

    /// Passes on an unfinished last line; the kept end, from the start of a line.
    mutating func finish() -> String {
        if !line.isEmpty { onLine?(String(decoding: line, as: UTF8.self)) }
        var kept = tail.suffix(limit)
        if received > limit, let newline = kept.firstIndex(of: UInt8(ascii: "\n")) {
            kept = kept[(newline + 1)...]
        }
        return String(decoding: kept, as: UTF8.self)
    }
}
