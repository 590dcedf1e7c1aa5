import Foundation
import Testing
import TestSupport

/// The coach's session page and the athlete page as served, drawn by a real
/// browser (headless Chromium) at a phone's and a desktop's width.
@Suite("The coach pages in a real browser", .timeLimit(.minutes(5)))
struct PageRenderingTests {
    /// The page background, the plots' line and the tables' row rules (the pages' own style).
    static let (background, plotLine, tableRule) = (0xf4f6f9, 0x1f5fbf, 0xe8ebf1)
    static let widths = [("phone", 390, 5_000), ("desktop", 1_280, 3_000)]

    @Test("the session page and the athlete page draw their plots and tables, fit the width, and say nothing on the console", .postgresDatabase)
    func pages() async throws {
        try await APIServerTests.withServer { connection, call in
            let (key, gym) = try await APIServerTests.key(connection, organization: "Gym")
            var sessions: [UUID] = []
            for (reps, daysAgo) in [(4, 9), (6, 5), (5, 1)] {
                let session = try await APIServerTests.scoredSession(connection, gym, reps: reps, athlete: "ana")
                _ = try await connection.query(
                    "UPDATE sessions SET created_at = now() - make_interval(days => $2) WHERE id = $1", [session, daysAgo])
                sessions.append(session)
            }
            let pages = [
                ("session", "/v1/sessions/\(sessions[1].uuidString.lowercased())/report.html", 6),
                ("athlete", "/v1/athletes/ana/report.html", 3),
            ]
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-pages-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            for (name, path, tableRows) in pages {
                let page = try await call("GET", path, key, nil, [:])
                try #require(page.status == 200, "\(page.text)")
                let file = directory.appendingPathComponent("\(name).html").path
                try page.body.write(to: URL(fileURLWithPath: file))
                for (device, width, height) in Self.widths {
                    let drawn = try await HeadlessBrowser.render(file: file, width: width, height: height)
                    Self.check(drawn, "the \(name) page on a \(device)", tableRows: tableRows)
                }
            }
        }
    }

    @Test("the checks see what they look for: a console error, a page running past the right edge or the bottom, no plot")
    func checksFail() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-pages-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("wide.html").path
        try Data("""
            <!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="img-src data:"></head>
            <body style="margin:0;background:#f4f6f9">
            <div style="width:2000px;height:6000px;background:#ffffff"></div>
            <script>console.error("broken")</script><img src="missing.png">
            </body></html>
            """.utf8).write(to: URL(fileURLWithPath: file))
        let drawn = try await HeadlessBrowser.render(file: file, width: 390, height: 800)
        #expect(drawn.consoleMessages.contains { $0.contains("broken") }, "\(drawn.consoleMessages)")
        #expect(drawn.consoleMessages.contains { $0.contains("missing.png") }, "a load the page's policy refuses is on the console too")
        let (fits, ends, line) = (Self.fits(drawn.screenshot), Self.ends(drawn.screenshot), drawn.screenshot.count(Self.plotLine))
        #expect(!fits, "a page wider than the window is cut off on the right")
        #expect(!ends, "a page taller than the window is cut off at the bottom")
        #expect(line == 0)
    }

    /// Nothing reaches the window's right edge (the page is not wider than the window).
    static func fits(_ screenshot: Pixels) -> Bool {
        screenshot.count(background, columns: (screenshot.width - 6)..<screenshot.width, tolerance: 2) == 6 * screenshot.height
    }

    /// The window's last rows are the page background: the page ended inside the window.
    static func ends(_ screenshot: Pixels) -> Bool {
        screenshot.count(background, rows: (screenshot.height - 40)..<screenshot.height, tolerance: 2) == 40 * screenshot.width
    }

    /// Rows ruled across at least half the window: a table's row borders.
    static func ruledRows(_ screenshot: Pixels) -> Int {
        (0..<screenshot.height).filter {
            screenshot.count(tableRule, rows: $0..<($0 + 1), tolerance: 3) > screenshot.width / 2
        }.count
    }

    static func check(_ drawn: BrowserRendering, _ what: String, tableRows: Int) {
        let screenshot = drawn.screenshot
        let (fitted, ended) = (fits(screenshot), ends(screenshot))
        #expect(drawn.consoleMessages.isEmpty, "\(what): \(drawn.consoleMessages)")
        #expect(fitted, "\(what): nothing cut off on the right")
        #expect(ended, "\(what): the whole page in the window")
        let line = screenshot.count(plotLine)
        #expect(line > 400, "\(what): the plot's line is drawn (\(line) pixels)")
        let rules = ruledRows(screenshot)
        #expect(rules >= tableRows, "\(what): a table with \(tableRows) rows (\(rules) rules across the page)")
    }
}
