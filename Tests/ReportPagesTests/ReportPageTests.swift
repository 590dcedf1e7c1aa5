import Foundation
import LandmarkTracks
import ReportPages
import Rules
import SyntheticMotion
import Testing

/// The coach's HTML page: what it shows, and that nothing in a report can break out of it.
@Suite("Report pages")
struct ReportPageTests {
    static let rules = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Rules").path

    static func analysis(_ exercise: String, seed: UInt64 = 4, _ change: (inout SetConditions) -> Void = { _ in }) throws -> Analysis {
        var conditions = SetConditions()
        change(&conditions)
        let set = SyntheticSessions.make(exercise, conditions, seed: seed)
        return Scorer(rule: try RuleBook.rule(for: exercise, in: rules)).score(set.track)
    }

    @Test("the page shows the summary, a band and a row per rep, a lane per fault code and every fault's message")
    func contents() throws {
        let analysis = try Self.analysis("pushup", seed: 2030)
        let report = analysis.report
        try #require(!report.faults.isEmpty)
        let html = ReportPage(analysis: analysis, exerciseTitle: "Push-up").html
        #expect(html.contains("<h1>Push-up</h1>") && html.contains(">Reps</div><div class=\"value\">\(report.repCount)<"))
        #expect(html.components(separatedBy: #"<rect class="rep"#).count - 1 == report.repCount)
        #expect(html.components(separatedBy: #"<circle class="turn""#).count - 1 == report.repCount)
        for code in Set(report.faults.map(\.code)) { #expect(html.contains(#"<text class="lane-label""#) && html.contains(">\(code)</text>")) }
        for fault in report.faults { #expect(html.contains(fault.message)) }
        #expect(html.contains("rest 142°") && html.contains("active 140°"), "the rep thresholds are drawn")
        // Units on the rep table's numbers: degrees for angles, seconds for times.
        let first = try #require(report.reps.first)
        let elbow = try #require(first.metrics["min_elbow_angle"]), duration = try #require(first.metrics["duration_ms"])
        #expect(analysis.angleMetrics.isSuperset(of: ["min_elbow_angle", "range_of_motion"]) && !analysis.angleMetrics.contains("duration_ms"))
        #expect(html.contains(String(format: "<td>%.2f s</td>", duration / 1000)), "durations in seconds")
        let angle = String(format: "%.2f", elbow).replacingOccurrences(of: #"\.?0+$"#, with: "", options: .regularExpression)
        #expect(html.contains("<td>\(angle)°</td>"), "angles in degrees: \(angle)")
    }

    @Test("text from the report is escaped: a hostile file name or message cannot inject markup")
    func escaping() throws {
        var analysis = try Self.analysis("squat")
        analysis.report.source.path = #"<script>alert("x")</script>&.mp4"#
        analysis.report.warnings = ["low_visibility: <b>bold</b> & 'quoted'"]
        let html = ReportPage(analysis: analysis, exerciseTitle: "Squat <i>").html
        #expect(!html.contains("<script>") && !html.contains("<b>") && !html.contains("<i>"))
        #expect(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;.mp4"))
        #expect(html.contains("&lt;b&gt;bold&lt;/b&gt; &amp; &#39;quoted&#39;"))
    }

    @Test("a hold shows the time held and the held spans, and no rep table")
    func hold() throws {
        let analysis = try Self.analysis("plank", seed: 2027)
        let html = ReportPage(analysis: analysis, exerciseTitle: "Plank").html
        #expect(html.contains(">Held</div>") && !html.contains("<h2>Reps</h2>"))
        #expect(html.components(separatedBy: #"<rect class="held""#).count - 1 == analysis.heldSpans.count)
        #expect(!analysis.heldSpans.isEmpty)
    }

    @Test("a long session is thinned to at most 2,400 plotted points; all drawing stays in the picture")
    func longSession() throws {
        let analysis = try Self.analysis("squat") { $0.reps = 60; $0.fps = 60 }
        try #require(analysis.keySignal.values.count > 5000)
        let html = ReportPage(analysis: analysis, exerciseTitle: "Squat").html
        let path = try #require(html.firstMatch(of: /<path class="signal" d="([^"]*)"/)?.output.1)
        let points = path.matches(of: /[ML]([0-9.]+) ([0-9.]+)/).map { (Double($0.output.1)!, Double($0.output.2)!) }
        #expect(points.count <= 2400 && points.count > 1000, "\(points.count) points")
        let viewBox = try #require(html.firstMatch(of: /viewBox="0 0 ([0-9.]+) ([0-9.]+)"/)?.output)
        let (width, height) = (Double(viewBox.1)!, Double(viewBox.2)!)
        #expect(points.allSatisfy { (0...width).contains($0.0) && (0...height).contains($0.1) })
    }

    @Test("nobody seen: the page still renders, with the warning and an empty plot")
    func nobody() throws {
        var conditions = SetConditions()
        conditions.reps = 2
        var track = SyntheticSessions.make("squat", conditions, seed: 1).track
        for index in track.frames.indices { track.frames[index].poses = [] }
        let analysis = Scorer(rule: try RuleBook.rule(for: "squat", in: Self.rules)).score(track)
        let html = ReportPage(analysis: analysis, exerciseTitle: "Squat").html
        #expect(html.contains("no_person") && html.contains(#"<path class="signal" d="""#))
        #expect(html.contains("camera view unknown") && html.contains("No faults found."))
    }
}
