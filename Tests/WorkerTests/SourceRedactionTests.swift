import Store
import Testing

@testable import Worker

@Suite("Sources in logs and reasons")
struct SourceRedactionTests {
    @Test("a URL's scheme is read in any case: an upper-case one is a URL, and its token never shown")
    func upperCaseSchemes() {
        for uri in ["HTTPS://coach:s3cret@example.com/clip.mp4?token=abc", "Http://coach:s3cret@example.com/clip.mp4"] {
            guard case .remote = JobSource(uri: uri) else {
                Issue.record("\(uri) was taken for a path")
                continue
            }
            let shown = redactedSource(uri)
            #expect(!shown.contains("s3cret") && !shown.contains("abc") && shown.contains("example.com/clip.mp4"), "\(shown)")
        }
        #expect(JobSource(uri: "FILE:///videos/a.mp4") == .local(path: "/videos/a.mp4"))
    }

    @Test("control characters in a path are escaped, so that a file name cannot forge a log line")
    func controlCharacters() {
        let shown = redactedSource("/uploads/a.mp4\n2026-11-23 info worker: done\u{1B}[0m")
        #expect(!shown.contains("\n") && !shown.contains("\u{1B}"))
        #expect(shown.hasPrefix("/uploads/a.mp4\\n2026-11-23 info worker: done"), "\(shown)")
    }
}
