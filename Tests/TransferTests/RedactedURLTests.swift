import Testing
import Transfer

/// URLs in messages lose their credentials, query and fragment.
@Suite("Redacted URLs")
struct RedactedURLTests {
    @Test(
        "Credentials, query and fragment are removed",
        arguments: [
            ("https://user:secret@example.com/v.mp4?token=abc#t=10", "https://example.com/v.mp4"),
            ("http://alice@example.com:8080/a/b", "http://example.com:8080/a/b"),
            ("https://example.com/@someone/video?X-Amz-Signature=ff", "https://example.com/@someone/video"),
            ("HTTPS://Example.com", "https://Example.com/"),
            ("ftp://user:pw@files.example.com/x", "ftp://files.example.com/x"),
        ])
    func redacts(url: String, expected: String) {
        #expect(redactedURL(url) == expected)
    }

    @Test("A URL libcurl cannot parse shows its scheme alone")
    func unparseable() {
        #expect(redactedURL("https://user:pa ss@exa mple.com/") == "https://…")
        #expect(redactedURL("https://user:pa/ss@example.com/") == "https://…")
        #expect(redactedURL("not a URL at all") == "(not a URL)")
    }
}
