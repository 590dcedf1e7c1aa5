#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// An IPv4 or IPv6 address, as bytes in network order.
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// 4 bytes for IPv4, 16 for IPv6.
    public let bytes: [UInt8]

    /// The address of `bytes`, or `nil` unless there are 4 or 16 of them.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// Parses dotted IPv4 ("192.168.0.1") or textual IPv6 ("fe80::1", "::ffff:127.0.0.1").
    public init?(_ text: String) {
        if let bytes = Self.parse(text, family: AF_INET, count: 4) ?? Self.parse(text, family: AF_INET6, count: 16) {
            self.bytes = bytes
        } else {
            return nil
        }
    }

    /// Whether this is an IPv4 address; IPv4-mapped IPv6 addresses are not.
    public var isIPv4: Bool { bytes.count == 4 }

    /// The IPv4 address an IPv6 address carries in its last 4 bytes, for the
    /// forms that reach it: IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible
    /// (::a.b.c.d, deprecated) and NAT64 (64:ff9b::a.b.c.d).
    public var embeddedIPv4: IPAddress? {
        guard bytes.count == 16 else { return nil }
        let prefix = bytes[0..<12]
        let mapped = prefix.elementsEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff])
        let compatible = prefix.allSatisfy { $0 == 0 } && bytes[12..<16].contains { $0 != 0 }
            && !(bytes[12..<15].allSatisfy { $0 == 0 } && bytes[15] == 1)  // ::1 is IPv6 loopback
        let nat64 = prefix.elementsEqual([0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])
        guard mapped || compatible || nat64 else { return nil }
        return IPAddress(bytes: Array(bytes[12..<16]))
    }

    /// The usual text: "127.0.0.1", "::1", "::ffff:10.0.0.1".
    public var description: String {
        let family = isIPv4 ? AF_INET : AF_INET6
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let written = bytes.withUnsafeBytes { address in
            inet_ntop(family, address.baseAddress, &text, socklen_t(text.count))
        }
        guard written != nil else { return bytes.map(String.init).joined(separator: ".") }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func parse(_ text: String, family: Int32, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        let parsed = bytes.withUnsafeMutableBytes { inet_pton(family, text, $0.baseAddress) }
        return parsed == 1 ? bytes : nil
    }
}
