import CLibPQ
import Foundation

/// A libpq connection string or URI, parsed (`PQconninfoParse`) before anything
/// connects, so that no message — libpq's own included — repeats its password.
struct ConnectionString {
    let text: String
    /// The password it carries, if any: removed from every message.
    let password: String?

    init(_ text: String) throws(PostgresError) {
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(text, &error) else {
            let reason = error.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "libpq is out of memory"
            if let error { PQfreemem(error) }
            // Unparsed, the password cannot be told apart: libpq's reason loses what it quotes.
            throw PostgresError(.connectionFailed, "the database URL is not valid: \(Self.withoutQuotedText(reason))")
        }
        defer { PQconninfoFree(options) }
        var password: String?
        var option = options
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == "password", let value = option.pointee.val { password = String(cString: value) }
            option += 1
        }
        self.text = text
        self.password = password.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `message` with the connection string and its password, wherever they appear, replaced by `***`.
    func redacting(_ message: String) -> String {
        var redacted = message.replacingOccurrences(of: text, with: "***")
        if let password {
            redacted = redacted.replacingOccurrences(of: password, with: "***")
            if let encoded = password.addingPercentEncodingForURLUserInfo(), encoded != password {
                redacted = redacted.replacingOccurrences(of: encoded, with: "***")
            }
        }
        return redacted
    }

    /// libpq's text with what it quotes dropped, but for a character or two (`"x"`, `":"`).
    static func withoutQuotedText(_ text: String) -> String {
        var result = "", quoted = "", inQuotes = false
        for character in text {
            if character == "\"" {
                if inQuotes { result += quoted.count <= 2 ? "\"\(quoted)\"" : "\"…\"" }
                quoted = ""
                inQuotes.toggle()
            } else if inQuotes {
                quoted.append(character)
            } else {
                result.append(character)
            }
        }
        return inQuotes ? result + "\"…" : result
    }
}

private extension String {
    /// The password as a URI carries it, percent-encoded.
    func addingPercentEncodingForURLUserInfo() -> String? {
        var encoded = ""
        for byte in utf8 {
            if (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || "-._~".utf8.contains(byte) {
                encoded.append(Character(UnicodeScalar(byte)))
            } else {
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return encoded
    }

    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
