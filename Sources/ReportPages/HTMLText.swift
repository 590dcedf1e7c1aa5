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

/// A whole page: the document head (UTF-8, phone-width viewport, `title`, the
/// inline `style`, any `head` extras) around `body`, nothing fetched. Its
/// content security policy lets the browser load nothing but the inline style
/// and `data:` images: whatever a report's text holds, the page runs no script
/// and fetches nothing.
func htmlDocument(title: String, style: String, head: String = "", body: String) -> String {
    """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
    <meta name="viewport" content="width=device-width, initial-scale=1">\(head)
    <title>\(escaped(title))</title>
    <style>\(style)</style>
    </head>
    <body>
    <main>
    \(body)
    </main>
    </body>
    </html>

    """
}
