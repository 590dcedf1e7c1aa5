import Foundation

/// A place in one line of JSON, read byte by byte, for `FrameLineParser`.
///
/// It checks JSON's syntax as it goes, values read or skipped alike, and its
/// failures say what was expected and at which column (in bytes, from 1): "not
/// a JSON object (frame line)" when the line is not JSON there, "malformed
/// frame" when it is JSON but not what a frame has there.
struct JSONCursor {
    /// Why a line is not a frame.
    struct Failure: Error {
        var reason: String
    }

    /// A string read from the line: where its text is, between the quotes.
    struct StringToken {
        var content: Range<Int>
        var isEscaped: Bool
    }

    /// Arrays and objects nested deeper than this are refused, so that skipping them cannot exhaust the stack.
    static let maximumDepth = 64

    private let bytes: UnsafeRawBufferPointer
    private(set) var position = 0
    /// The arrays and objects open at `position`.
    private var depth = 0

    /// A cursor at the start of `bytes`, which must stay valid while it is used:
    /// inside the `withUnsafeBytes` that gives them.
    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { position == bytes.count }

    /// The byte at `position`, or 0 at the end of the line (a NUL byte is never valid where it is read).
    private var current: UInt8 { position < bytes.count ? bytes[position] : 0 }

    mutating func skipWhitespace() {
        while true {
            switch current {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    // MARK: Arrays and objects

    /// Reads the "{" of an object and its first key, up to its value; nil when the object is empty.
    mutating func firstKey() throws(Failure) -> StringToken? {
        guard current == UInt8(ascii: "{") else { throw expectedValue("an object") }
        try enter()
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            leave()
            return nil
        }
        return try memberKey()
    }

    /// After a member's value: reads the "," and the next key, up to its value, or the "}" and returns nil.
    mutating func nextKey() throws(Failure) -> StringToken? {
        skipWhitespace()
        switch current {
        case UInt8(ascii: ","):
            position += 1
            skipWhitespace()
            return try memberKey()
        case UInt8(ascii: "}"):
            leave()
            return nil
        default: throw expected("\",\" or \"}\"")
        }
    }

    /// Reads a key and its ":", up to the value.
    private mutating func memberKey() throws(Failure) -> StringToken {
        guard current == UInt8(ascii: "\"") else { throw expected("a key in quotes") }
        let key = try string()
        skipWhitespace()
        guard current == UInt8(ascii: ":") else { throw expected("\":\"") }
        position += 1
        skipWhitespace()
        return key
    }

    /// Whether a key read by `firstKey()` or `nextKey()` is `name`.
    func key(_ key: StringToken, is name: StaticString) -> Bool {
        let name = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        return key.isEscaped
            ? unescaped(key.content).elementsEqual(name)
            : key.content.count == name.count && bytes[key.content].elementsEqual(name)
    }

    /// Reads the "[" of an array.
    mutating func openArray() throws(Failure) {
        guard current == UInt8(ascii: "[") else { throw expectedValue("an array") }
        try enter()
        skipWhitespace()
    }

    /// Whether the array has a value at `index`, all before it read: reads up to
    /// that value, or reads the "]".
    mutating func hasElement(at index: Int) throws(Failure) -> Bool {
        if index > 0 {
            skipWhitespace()
            guard current == UInt8(ascii: ",") else {
                guard current == UInt8(ascii: "]") else { throw expected("\",\" or \"]\"") }
                leave()
                return false
            }
            position += 1
            skipWhitespace()
        } else if current == UInt8(ascii: "]") {
            leave()
            return false
        }
        return true
    }

    /// Steps into the array or object at `position`.
    private mutating func enter() throws(Failure) {
        guard depth < Self.maximumDepth else {
            throw malformed(at: position, "arrays and objects nested deeper than \(Self.maximumDepth) levels")
        }
        depth += 1
        position += 1
    }

    /// Steps out of an array or object at its closing bracket.
    private mutating func leave() {
        depth -= 1
        position += 1
    }

    // MARK: Values

    /// Skips a value of any kind.
    mutating func skipValue() throws(Failure) {
        switch current {
        case UInt8(ascii: "{"):
            var key = try firstKey()
            while key != nil {
                try skipValue()
                key = try nextKey()
            }
        case UInt8(ascii: "["):
            try openArray()
            var count = 0
            while try hasElement(at: count) {
                try skipValue()
                count += 1
            }
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try number()
        case _ where isAt("true") || isAt("null"): position += 4
        case _ where isAt("false"): position += 5
        default: throw expected("a value")
        }
    }

    /// Reads `null`, if it is at `position`.
    mutating func readNull() -> Bool {
        guard isAt("null") else { return false }
        position += 4
        return true
    }

    /// Reads a string value, with its escapes decoded.
    mutating func text() throws(Failure) -> String {
        guard current == UInt8(ascii: "\"") else { throw expectedValue("a string") }
        let string = try string()
        return string.isEscaped
            ? String(decoding: unescaped(string.content), as: UTF8.self)
            : String(decoding: UnsafeRawBufferPointer(rebasing: bytes[string.content]), as: UTF8.self)
    }

    /// Reads a number as `JSONDecoder` reads a `Float`: with `strtof`, refusing a
    /// number that overflows to infinity or underflows to zero.
    mutating func float() throws(Failure) -> Float {
        let token = try number()
        guard let value = converted(token, by: { strtof($0, $1) }), value.isFinite,
              value != 0 || isWrittenAsZero(token)
        else {
            throw malformed(at: token.lowerBound, "\(text(of: token)) does not fit in a Float")
        }
        return value
    }

    /// Reads a number as `JSONDecoder` reads an `Int`: its digits, or else a number
    /// that `strtod` makes a whole number below 2⁵³, like `33.0` or `3.3e1`.
    /// `name` is what the number is, for the failure.
    mutating func integer(_ name: String) throws(Failure) -> Int {
        let token = try number()
        let written = text(of: token)
        if let value = Int(written) { return value }
        let value = converted(token, by: { strtod($0, $1) }) ?? .nan
        if let whole = Int(exactly: value), value.magnitude < 0x1p53 { return whole }
        let problem = value == value.rounded(.towardZero) ? "is too large" : "is not a whole number"
        throw malformed(at: token.lowerBound, "\(name) \(written) \(problem)")
    }

    /// Reads a number, checked against JSON's grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    private mutating func number() throws(Failure) -> Range<Int> {
        let start = position
        if current == UInt8(ascii: "-") { position += 1 }
        switch current {
        case UInt8(ascii: "0"): position += 1
        case UInt8(ascii: "1")...UInt8(ascii: "9"): try digits()
        default: throw position == start ? expectedValue("a number") : expected("a digit")
        }
        if current == UInt8(ascii: ".") {
            position += 1
            try digits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            try digits()
        }
        return start..<position
    }

    /// Reads one digit or more.
    private mutating func digits() throws(Failure) {
        guard Self.isDigit(current) else { throw expected("a digit") }
        repeat { position += 1 } while Self.isDigit(current)
    }

    /// Whether a number read by `number()` has no digit but 0 before its exponent, like `-0.0` or `0e5`.
    private func isWrittenAsZero(_ token: Range<Int>) -> Bool {
        let significand = bytes[token].prefix { $0 | 0x20 != UInt8(ascii: "e") }
        return significand.allSatisfy { !(UInt8(ascii: "1")...UInt8(ascii: "9")).contains($0) }
    }

    /// `convert` (`strtof` or `strtod`) applied to a NUL-terminated copy of a number read by `number()`,
    /// if it reads the whole copy: JSON's grammar for numbers is within theirs, but their decimal
    /// point is the locale's, "." unless the process calls `setlocale`.
    private func converted<Number>(
        _ token: Range<Int>, by convert: (UnsafePointer<CChar>, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Number
    ) -> Number? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: token.count + 1) { copy in
            guard let copied = copy.baseAddress else { return nil }
            UnsafeMutableRawBufferPointer(copy).copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[token]))
            copy[token.count] = 0
            var end: UnsafeMutablePointer<CChar>?
            let value = convert(copied, &end)
            return end == copied + token.count ? value : nil
        }
    }

    private func text(of token: Range<Int>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[token]), as: UTF8.self)
    }

    /// Whether the line has `word` at `position`.
    private func isAt(_ word: StaticString) -> Bool {
        let word = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        return bytes.count - position >= word.count && bytes[position..<position + word.count].elementsEqual(word)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    // MARK: Strings

    /// Reads the string at `position`, checking its escapes (surrogates in pairs),
    /// that it has no control characters and that it is UTF-8.
    private mutating func string() throws(Failure) -> StringToken {
        position += 1
        let start = position
        var isEscaped = false
        var isASCII = true
        while true {
            switch current {
            case UInt8(ascii: "\""):
                let content = start..<position
                position += 1
                guard isASCII || String(validating: bytes[content], as: UTF8.self) != nil else {
                    throw notJSON(at: start - 1, "a string that is not UTF-8")
                }
                return StringToken(content: content, isEscaped: isEscaped)
            case UInt8(ascii: "\\"):
                isEscaped = true
                try escape()
            case 0..<0x20: throw expected("the string's closing quote")
            case 0x80...:
                isASCII = false
                position += 1
            default: position += 1
            }
        }
    }

    /// Reads the escape sequence at `position`, and the low surrogate after a high one.
    private mutating func escape() throws(Failure) {
        let start = position
        position += 1
        switch current {
        case UInt8(ascii: "u"):
            let value = try hexScalar()
            if (0xDC00..<0xE000).contains(value) { throw malformed(at: start, "an unpaired surrogate in a string") }
            guard (0xD800..<0xDC00).contains(value) else { return }
            guard isAt("\\u") else { throw malformed(at: start, "an unpaired surrogate in a string") }
            position += 1
            guard (0xDC00..<0xE000).contains(try hexScalar()) else {
                throw malformed(at: start, "an unpaired surrogate in a string")
            }
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            position += 1
        default: throw expected("an escape: one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u")
        }
    }

    /// Reads the `u` and four hex digits of a `\u` escape.
    private mutating func hexScalar() throws(Failure) -> UInt32 {
        position += 1
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Self.hexDigit(current) else { throw expected("a hex digit") }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    /// The text of a string checked by `string()`, its escapes decoded, as UTF-8.
    private func unescaped(_ content: Range<Int>) -> [UInt8] {
        var text: [UInt8] = []
        var index = content.lowerBound
        func hex(at start: Int) -> UInt32 {
            bytes[start..<start + 4].reduce(0) { $0 << 4 | (Self.hexDigit($1) ?? 0) }
        }
        while index < content.upperBound {
            guard bytes[index] == UInt8(ascii: "\\") else {
                text.append(bytes[index])
                index += 1
                continue
            }
            let escaped = bytes[index + 1]
            index += 2
            switch escaped {
            case UInt8(ascii: "u"):
                var value = hex(at: index)
                index += 4
                if (0xD800..<0xDC00).contains(value) {
                    value = 0x10000 + (value - 0xD800) << 10 + (hex(at: index + 2) - 0xDC00)
                    index += 6
                }
                UTF8.encode(Unicode.Scalar(value) ?? "\u{FFFD}") { text.append($0) }
            case UInt8(ascii: "b"): text.append(0x08)
            case UInt8(ascii: "f"): text.append(0x0C)
            case UInt8(ascii: "n"): text.append(0x0A)
            case UInt8(ascii: "r"): text.append(0x0D)
            case UInt8(ascii: "t"): text.append(0x09)
            default: text.append(escaped)
            }
        }
        return text
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    // MARK: Failures

    /// The line is not JSON at `position`: what it should have there, and what it has.
    func expected(_ what: String) -> Failure {
        notJSON(at: position, "expected \(what), found \(found.words)")
    }

    /// The line has something else where a frame has `what`: JSON of another kind, or not JSON.
    private func expectedValue(_ what: String) -> Failure {
        let found = found
        return found.isValue ? malformed(at: position, "expected \(what), found \(found.words)") : expected(what)
    }

    /// What the line has at `position`, in words, and whether it starts a JSON value.
    private var found: (words: String, isValue: Bool) {
        switch current {
        case _ where position >= bytes.count: ("the end of the line", false)
        case UInt8(ascii: "\""): ("a string", true)
        case UInt8(ascii: "{"): ("an object", true)
        case UInt8(ascii: "["): ("an array", true)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): ("a number", true)
        case _ where isAt("true"): ("true", true)
        case _ where isAt("false"): ("false", true)
        case _ where isAt("null"): ("null", true)
        case let byte where (0x21...0x7E).contains(byte): ("\"\(Character(Unicode.Scalar(byte)))\"", false)
        case let byte: (String(format: "byte 0x%02X", byte), false)
        }
    }

    private func notJSON(at offset: Int, _ problem: String) -> Failure {
        Failure(reason: "not a JSON object (frame line) at column \(offset + 1): \(problem)")
    }

    func malformed(at offset: Int, _ problem: String) -> Failure {
        Failure(reason: "malformed frame at column \(offset + 1): \(problem)")
    }
}
