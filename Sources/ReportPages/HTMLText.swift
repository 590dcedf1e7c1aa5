import Foundation

/// Text made safe to put in HTML content and attribute values.
func escaped(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for character in text {
        switch character {
        case "&": result += "&amp;"
        case "<": result += "&lt;"
        case ">": result += "&gt;"
        case "\"": result += "&quot;"
        case "'": result += "&#39;"
        default: result.append(character)
        }
    }
    return result
}

/// Seconds from milliseconds, as "12.3 s".
func seconds(_ milliseconds: Int, decimals: Int = 1) -> String {
    String(format: "%.\(decimals)f s", Double(milliseconds) / 1000)
}

/// A number with at most `decimals` decimals and no trailing zeros.
func number(_ value: Double, decimals: Int = 1) -> String {
    var text = String(format: "%.\(decimals)f", value)
    if text.contains(".") {
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
    }
    return text == "-0" ? "0" : text
}
