import Foundation

#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// One accepted connection of a `LoopbackHTTPServer`, closed on deinit.
final class LoopbackConnection {
    private let descriptor: Int32
    private var buffered: [UInt8] = []
    private static let maxHeaderBytes = 64 * 1024

    init(_ descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Reads a request line, headers and a body of Content-Length bytes, or
    /// `nil` if the client closes first or sends what is not HTTP/1.x.
    func readRequest() -> LoopbackHTTPServer.Request? {
        guard let head = readHead() else { return nil }
        let lines = head.components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1.") else { return nil }
        var headers = [(name: String, value: String)]()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        let length = headers.first { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) } ?? 0
        guard let body = readBytes(length) else { return nil }
        return LoopbackHTTPServer.Request(
            method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: body, receivedAt: Date())
    }

    /// Sends `response` as it describes, stopping early when the client is gone.
    func respond(with response: LoopbackHTTPServer.Response) {
        sleep(for: response.delay)
        var head = "HTTP/1.1 \(response.status) \(reasonPhrase(response.status))\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        switch response.framing {
        case .contentLength: head += "Content-Length: \(response.declaredLength ?? response.body.count)\r\n"
        case .chunked: head += "Transfer-Encoding: chunked\r\n"
        }
        head += "Connection: close\r\n\r\n"
        guard sendAll(Array(head.utf8)) else { return }
        let end = min(response.body.count, response.closeAfter ?? .max)
        let pieceSize = max(1, response.pace?.bytes ?? 16 * 1024)
        var offset = 0
        while offset < end {
            let piece = Array(response.body[offset..<min(offset + pieceSize, end)])
            let framed = response.framing == .chunked ? chunk(piece) : piece
            guard sendAll(framed) else { return }
            offset += piece.count
            if let pace = response.pace { sleep(for: pace.interval) }
        }
        if response.framing == .chunked && response.closeAfter == nil { _ = sendAll(Array("0\r\n\r\n".utf8)) }
    }

    private func chunk(_ piece: [UInt8]) -> [UInt8] {
        Array("\(String(piece.count, radix: 16))\r\n".utf8) + piece + Array("\r\n".utf8)
    }

    /// The request line and headers, without the blank line that ends them.
    private func readHead() -> String? {
        let terminator: [UInt8] = Array("\r\n\r\n".utf8)
        while true {
            if let end = buffered.firstRange(of: terminator) {
                let head = String(decoding: buffered[..<end.lowerBound], as: UTF8.self)
                buffered.removeSubrange(..<end.upperBound)
                return head
            }
            guard buffered.count < Self.maxHeaderBytes, fill() else { return nil }
        }
    }

    private func readBytes(_ count: Int) -> [UInt8]? {
        while buffered.count < count {
            guard fill() else { return nil }
        }
        defer { buffered.removeSubrange(..<count) }
        return Array(buffered[..<count])
    }

    /// Reads what has arrived into the buffer; `false` at the end or on an error.
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            buffered += chunk[..<count]
            return true
        }
    }

    /// Writes all of `bytes`; `false` once the client is gone.
    private func sendAll(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    private func sleep(for duration: Duration) {
        guard duration > .zero else { return }
        let (seconds, attoseconds) = duration.components
        Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
    }

    private func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}
