import Foundation

/// A statement parameter as it travels to the server: text the server parses
/// into the parameter's type, raw bytes for `bytea`, or SQL `NULL`.
public enum PostgresValue: Sendable, Hashable {
    case text(String)
    case bytes([UInt8])
    case null
}

/// A Swift value that can be bound to a statement parameter.
public protocol PostgresEncodable: Sendable {
    var postgresValue: PostgresValue { get }
}

/// A Swift value that can be read from a column sent in PostgreSQL's text format.
public protocol PostgresDecodable {
    /// Reads the value from the column's text; nil when the text is not a value of this type.
    init?(postgresText text: String)
}

extension String: PostgresEncodable, PostgresDecodable {
    public var postgresValue: PostgresValue { .text(self) }
    public init?(postgresText text: String) { self = text }
}

extension Int: PostgresEncodable, PostgresDecodable {
    public var postgresValue: PostgresValue { .text(String(self)) }
    public init?(postgresText text: String) { self.init(text) }
}

extension Int64: PostgresEncodable, PostgresDecodable {
    public var postgresValue: PostgresValue { .text(String(self)) }
    public init?(postgresText text: String) { self.init(text) }
}

extension Int32: PostgresEncodable, PostgresDecodable {
    public var postgresValue: PostgresValue { .text(String(self)) }
    public init?(postgresText text: String) { self.init(text) }
}

extension Double: PostgresEncodable, PostgresDecodable {
    public var postgresValue: PostgresValue { .text(String(self)) }
    public init?(postgresText text: String) {
        switch text {
        case "NaN": self = .nan
        case "Infinity": self = .infinity
        case "-Infinity": self = -.infinity
        default: self.init(text)
        }
    }
}

extension Bool: PostgresEncodable, PostgresDecodable {
    public var postgresValue: PostgresValue { .text(self ? "t" : "f") }
    public init?(postgresText text: String) {
        switch text {
        case "t": self = true
        case "f": self = false
        default: return nil
        }
    }
}

extension UUID: PostgresEncodable, PostgresDecodable {
    public var postgresValue: PostgresValue { .text(uuidString.lowercased()) }
    public init?(postgresText text: String) { self.init(uuidString: text) }
}

extension Array: PostgresEncodable where Element == UInt8 {
    public var postgresValue: PostgresValue { .bytes(self) }
}

extension Array: PostgresDecodable where Element == UInt8 {
    /// Reads `bytea` in its hex output format (`\x0a1b…`), PostgreSQL's default.
    public init?(postgresText text: String) {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8[0] == UInt8(ascii: "\\"), utf8[1] == UInt8(ascii: "x"), utf8.count % 2 == 0 else {
            return nil
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity((utf8.count - 2) / 2)
        var index = 2
        while index < utf8.count {
            guard let high = hexDigit(utf8[index]), let low = hexDigit(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        self = bytes
    }
}

private func hexDigit(_ character: UInt8) -> UInt8? {
    switch character {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
    default: nil
    }
}

extension Date: PostgresEncodable, PostgresDecodable {
    /// ISO 8601 in UTC with microseconds, which `timestamptz` reads exactly.
    public var postgresValue: PostgresValue { .text(PostgresTimestamp.format(self)) }
    /// Reads `timestamptz` as the connection sends it (DateStyle ISO, time zone UTC).
    public init?(postgresText text: String) {
        guard let date = PostgresTimestamp.parse(text) else { return nil }
        self = date
    }
}

extension Optional: PostgresEncodable where Wrapped: PostgresEncodable {
    public var postgresValue: PostgresValue { self?.postgresValue ?? .null }
}
