import Foundation
import Rules

/// A session report as one self-contained HTML page for a coach: a summary,
/// the warnings, a plot of the key signal with reps and faults marked, the rep
/// table with its metrics and faults, and the faults with their evidence.
/// No scripts, fonts or images are fetched: the page works offline and by mail.
public struct ReportPage {
    public let analysis: Analysis
    /// The exercise as people say it ("Back squat").
    public let exerciseTitle: String

    /// A JPEG picture of each rep's turn with the skeleton drawn, by rep
    /// number, where the video was kept; shown inside the page.
    public let thumbnails: [Int: Data]

    public init(analysis: Analysis, exerciseTitle: String, thumbnails: [Int: Data] = [:]) {
        self.analysis = analysis
        self.exerciseTitle = exerciseTitle
        self.thumbnails = thumbnails
    }

    private var report: SessionReport { analysis.report }

    public var html: String {
        let source = report.source.path.isEmpty ? "session" : (report.source.path as NSString).lastPathComponent
        return htmlDocument(
            title: "\(exerciseTitle) · \(source)", style: Self.style,
            head: "\n<meta name=\"generator\" content=\"spotter \(escaped(report.format))\">",
            body: """
                <header>
                <h1>\(escaped(exerciseTitle))</h1>
                <p class="source">\(escaped(report.source.path)) · rules \(escaped(report.rulesVersion)) · \(report.view.map { $0.rawValue + " view" } ?? "camera view unknown") · count confidence \(report.countConfidence.rawValue)</p>
                </header>
                \(summary)
                \(warnings)
                <section>
                <h2>\(escaped(signalTitle)) over time</h2>
                <div class="scroll">\(SignalPlot(signal: analysis.keySignal, report: report, heldSpans: analysis.heldSpans).svg)</div>
                </section>
                \(repTable)
                \(turnPictures)
                \(faultTable)
                """)
    }

    private var signalTitle: String {
        let name = analysis.keySignal.name.replacingOccurrences(of: "_", with: " ")
        return name.prefix(1).uppercased() + name.dropFirst() + (analysis.keySignal.isAngle ? " angle" : "")
    }

    private var summary: String {
        let source = report.source
        let seen = source.frames == 0 ? 0 : Double(source.framesWithPose) / Double(source.frames) * 100
        var cards: [(String, String)] = []
        if let held = report.holdMilliseconds {
            cards.append(("Held", seconds(held)))
        } else {
            cards.append(("Reps", "\(report.repCount)"))
            cards.append(("Reps with faults", "\(report.reps.filter { !$0.faults.isEmpty }.count)"))
        }
        cards.append(("Faults", "\(report.faults.count)"))
        cards.append(("Duration", seconds(source.durationMilliseconds)))
        cards.append(("Person seen", "\(number(seen, decimals: 0))% of \(source.frames) frames"))
        let items = cards.map { #"<div class="card"><div class="label">\#(escaped($0.0))</div><div class="value">\#(escaped($0.1))</div></div>"# }
        return #"<section class="summary">\#(items.joined())</section>"#
    }

    private var warnings: String {
        guard !report.warnings.isEmpty else { return "" }
        let items = report.warnings.map { warning -> String in
            guard let colon = warning.firstIndex(of: ":") else { return "<li>\(escaped(warning))</li>" }
            let code = warning[..<colon], text = warning[warning.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            return #"<li><span class="code">\#(escaped(String(code)))</span> \#(escaped(text))</li>"#
        }
        return #"<section class="warnings"><h2>Warnings</h2><ul>\#(items.joined())</ul></section>"#
    }

    private var repTable: String {
        guard !report.reps.isEmpty else { return "" }
        let metricNames = Self.ordered(Set(report.reps.flatMap(\.metrics.keys)))
        let head = ["#", "start", "turn", "end"] + metricNames.map(Self.heading) + ["faults"]
        let rows = report.reps.map { rep -> String in
            var cells = ["\(rep.index)", seconds(rep.startMilliseconds, decimals: 2), seconds(rep.bottomMilliseconds, decimals: 2),
                         seconds(rep.endMilliseconds, decimals: 2)].map { "<td>\($0)</td>" }
            cells += metricNames.map { name in
                guard let value = rep.metrics[name] else { return "<td></td>" }
                let text = name.hasSuffix("_ms") ? seconds(Int(value), decimals: 2)
                    : number(value, decimals: 2) + (analysis.angleMetrics.contains(name) ? "°" : "")
                return "<td>\(text)</td>"
            }
            let faults = rep.faults.map { #"<span class="code">\#(escaped($0))</span>"# }.joined(separator: " ")
            cells.append(#"<td class="faults">\#(faults.isEmpty ? "—" : faults)</td>"#)
            return #"<tr\#(rep.faults.isEmpty ? "" : #" class="faulty""#)>\#(cells.joined())</tr>"#
        }
        return """
            <section><h2>Reps</h2><div class="scroll"><table>
            <thead><tr>\(head.map { "<th>\(escaped($0))</th>" }.joined())</tr></thead>
            <tbody>\(rows.joined(separator: "\n"))</tbody>
            </table></div></section>
            """
    }

    /// Each rep at its turn, as the video showed it, with the skeleton.
    private var turnPictures: String {
        let figures = report.reps.compactMap { rep -> String? in
            guard let picture = thumbnails[rep.index] else { return nil }
            let caption = "rep \(rep.index) at \(seconds(rep.bottomMilliseconds, decimals: 2))"
            return #"<figure><img src="data:image/jpeg;base64,\#(picture.base64EncodedString())" alt="\#(escaped(caption))"><figcaption>\#(escaped(caption))\#(rep.faults.isEmpty ? "" : " · " + rep.faults.map(escaped).joined(separator: ", "))</figcaption></figure>"#
        }
        guard !figures.isEmpty else { return "" }
        return #"<section><h2>Each rep at its turn</h2><div class="turns">\#(figures.joined())</div></section>"#
    }

    private var faultTable: String {
        guard !report.faults.isEmpty else { return #"<section><h2>Faults</h2><p class="none">No faults found.</p></section>"# }
        let rows = report.faults.map { fault in
            let cells = [
                seconds(fault.startMilliseconds, decimals: 2) + "–" + seconds(fault.endMilliseconds, decimals: 2),
                fault.rep.map(String.init) ?? "—",
            ].map { "<td>\($0)</td>" }
            return #"<tr>\#(cells.joined())<td><span class="code">\#(escaped(fault.code))</span></td><td class="\#(escaped(fault.severity))">\#(escaped(fault.severity))</td><td class="message">\#(escaped(fault.message))</td></tr>"#
        }
        return """
            <section><h2>Faults</h2><div class="scroll"><table>
            <thead><tr><th>when</th><th>rep</th><th>fault</th><th>severity</th><th>what was measured</th></tr></thead>
            <tbody>\(rows.joined(separator: "\n"))</tbody>
            </table></div></section>
            """
    }

    /// Timing first, then range of motion, then the rule's own metrics by name.
    static func ordered(_ names: Set<String>) -> [String] {
        let timing = ["duration_ms", "eccentric_ms", "concentric_ms", "range_of_motion"].filter(names.contains)
        return timing + names.subtracting(timing).sorted()
    }

    static func heading(_ metric: String) -> String {
        var words = metric.replacingOccurrences(of: "_", with: " ")
        if words.hasSuffix(" ms") { words.removeLast(3) }
        return words
    }

    static let style = """
        body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d2430;background:#f4f6f9}
        main{max-width:1000px;margin:0 auto;padding:24px}
        @media (max-width:600px){main{padding:14px}}
        h1{margin:0;font-size:26px}h2{font-size:17px;margin:26px 0 10px}
        .source{margin:4px 0 0;color:#5b6575}
        .summary{display:flex;flex-wrap:wrap;gap:12px;margin-top:18px}
        .card{background:#fff;border-radius:8px;padding:10px 16px;box-shadow:0 1px 2px #0002;min-width:120px}
        .card .label{color:#5b6575;font-size:13px}.card .value{font-size:22px;font-weight:600}
        .warnings ul{margin:0;padding-left:20px}.warnings li{margin:3px 0}
        .code{font-family:ui-monospace,monospace;font-size:13px;background:#e8ebf1;border-radius:4px;padding:1px 5px}
        section{background:transparent}
        .plot{width:100%;min-width:640px;height:auto;background:#fff;border-radius:8px;box-shadow:0 1px 2px #0002}
        .plot .signal{fill:none;stroke:#1f5fbf;stroke-width:1.8}
        .plot .rep{fill:#1f5fbf;fill-opacity:.07}.plot .rep.faulty{fill:#d9822b;fill-opacity:.12}
        .plot .held{fill:#2e9e5b;fill-opacity:.12}
        .plot .rep-label{font-size:11px;text-anchor:middle;fill:#5b6575}.plot .rep-label.faulty{fill:#b35c00;font-weight:600}
        .plot .grid{stroke:#e3e7ee}.plot .frame{fill:none;stroke:#c9d0db}
        .plot .axis,.plot .lane-label,.plot .threshold-label{font-size:11px;fill:#5b6575}
        .plot .lane-label{font-family:ui-monospace,monospace}
        .plot .threshold{stroke:#8a94a6;stroke-dasharray:5 4}
        .plot .turn{fill:#1f5fbf}
        .plot .lane{stroke:#e3e7ee}
        .plot .fault{fill:#c0392b}.plot .fault.info{fill:#8a94a6}.plot .fault.warning{fill:#d9822b}.plot .fault.critical{fill:#c0392b}
        .scroll{overflow-x:auto}
        table{border-collapse:collapse;width:100%;background:#fff;border-radius:8px;box-shadow:0 1px 2px #0002;font-size:14px}
        th,td{padding:6px 10px;text-align:left;border-bottom:1px solid #e8ebf1;white-space:nowrap}
        td:last-child{white-space:normal}td.message{min-width:16em}
        th{color:#5b6575;font-weight:600;font-size:13px;white-space:normal;vertical-align:bottom}
        tr.faulty td:first-child{box-shadow:inset 3px 0 #d9822b}
        td.warning{color:#b35c00}td.critical{color:#c0392b}
        .none{color:#5b6575}
        .turns{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:10px}
        .turns figure{margin:0;background:#fff;border-radius:8px;box-shadow:0 1px 2px #0002;overflow:hidden}
        .turns img{display:block;width:100%;height:auto}
        .turns figcaption{padding:4px 8px;font-size:13px;color:#5b6575}
        """
}
