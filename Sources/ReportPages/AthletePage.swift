import Foundation

/// An athlete's sessions over time as one self-contained HTML page for a
/// coach: per exercise, plots of reps (or time held), range of motion, tempo
/// and fault rate across the sessions, and the sessions' table with a link to
/// each one's page. Nothing is fetched; it reads on a phone.
public struct AthletePage {
    /// One analysed session, as the page plots it.
    public struct Session: Sendable {
        public var id: String
        public var date: Date
        public var exercise: String
        public var repCount: Int
        public var holdMilliseconds: Int?
        /// Degrees.
        public var rangeOfMotion: Double?
        public var repDurationMilliseconds: Double?
        /// Reps with a fault over all reps, 0...1.
        public var faultRate: Double?

        public init(
            id: String, date: Date, exercise: String, repCount: Int, holdMilliseconds: Int?, rangeOfMotion: Double?,
            repDurationMilliseconds: Double?, faultRate: Double?
        ) {
            (self.id, self.date, self.exercise, self.repCount, self.holdMilliseconds) = (id, date, exercise, repCount, holdMilliseconds)
            (self.rangeOfMotion, self.repDurationMilliseconds, self.faultRate) = (rangeOfMotion, repDurationMilliseconds, faultRate)
        }
    }

    public let athlete: String
    public let sessions: [Session]
    /// Exercise titles by name ("squat": "Back squat").
    public let titles: [String: String]
    /// Where a session's page is, from its id.
    public let sessionPage: (String) -> String

    public init(athlete: String, sessions: [Session], titles: [String: String], sessionPage: @escaping (String) -> String) {
        self.athlete = athlete
        self.sessions = sessions.sorted { $0.date < $1.date }
        self.titles = titles
        self.sessionPage = sessionPage
    }

    public var html: String {
        let exercises = sessions.map(\.exercise).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let body = exercises.isEmpty ? #"<p class="none">No analysed sessions yet.</p>"# : exercises.map(section).joined(separator: "\n")
        return htmlDocument(
            title: "\(athlete) · progress", style: ReportPage.style + Self.style,
            body: """
                <header>
                <h1>\(escaped(athlete))</h1>
                <p class="source">\(sessions.count) analysed session\(sessions.count == 1 ? "" : "s")\(span)</p>
                </header>
                \(body)
                """)
    }

    private var span: String {
        guard let first = sessions.first?.date, let last = sessions.last?.date else { return "" }
        return " · \(Self.day(first)) to \(Self.day(last))"
    }

    private func section(_ exercise: String) -> String {
        let mine = sessions.filter { $0.exercise == exercise }
        let holds = mine.contains { $0.holdMilliseconds != nil }
        let plots: [(String, String, (Session) -> Double?)] = holds
            ? [("Time held", "s", { $0.holdMilliseconds.map { Double($0) / 1000 } })]
            : [("Reps", "", { Double($0.repCount) }),
               ("Range of motion", "°", { $0.rangeOfMotion }),
               ("Tempo (time a rep)", "s", { $0.repDurationMilliseconds.map { $0 / 1000 } }),
               ("Fault rate", "%", { $0.faultRate.map { $0 * 100 } })]
        let charts = plots.map { title, unit, value in
            TrendPlot(title: title, unit: unit, points: mine.map { ($0.date, value($0)) }).svg
        }
        let rows = mine.map { session -> String in
            let date = #"<a href="\#(escaped(sessionPage(session.id)))">\#(escaped(Self.day(session.date)))</a>"#
            let cells = holds ? [session.holdMilliseconds.map { seconds($0) } ?? "—"] : Self.measures(session)
            return "<tr><td>\(date)</td>" + cells.map { "<td>\($0)</td>" }.joined() + "</tr>"
        }
        let head = ["date"] + (holds ? ["held"] : ["reps", "range of motion", "time a rep", "reps with faults"])
        return """
            <section>
            <h2>\(escaped(titles[exercise] ?? exercise))</h2>
            <div class="trends">\(charts.joined(separator: "\n"))</div>
            <div class="scroll"><table>
            <thead><tr>\(head.map { "<th>\(escaped($0))</th>" }.joined())</tr></thead>
            <tbody>\(rows.joined(separator: "\n"))</tbody>
            </table></div>
            </section>
            """
    }

    /// Reps, range of motion, time a rep and fault rate, with their units.
    private static func measures(_ session: Session) -> [String] {
        let range: String = session.rangeOfMotion.map { number($0) + "°" } ?? "—"
        let tempo: String = session.repDurationMilliseconds.map { seconds(Int($0), decimals: 2) } ?? "—"
        let faults: String = session.faultRate.map { number($0 * 100, decimals: 0) + " %" } ?? "—"
        return ["\(session.repCount)", range, tempo, faults]
    }

    static func day(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().dateSeparator(.dash))
    }

    static let style = """
        .trends{display:grid;grid-template-columns:repeat(auto-fit,minmax(260px,1fr));gap:12px;margin-bottom:12px}
        .trend{width:100%;height:auto;background:#fff;border-radius:8px;box-shadow:0 1px 2px #0002}
        .trend .title{font-size:13px;font-weight:600;fill:#1d2430}.trend .axis{font-size:11px;fill:#5b6575}
        .trend .grid{stroke:#e3e7ee}.trend .line{fill:none;stroke:#1f5fbf;stroke-width:2}.trend .point{fill:#1f5fbf}
        """
}

/// A small SVG plot of one measure across sessions, in time order: a point a
/// session (a gap where it has no value), the first and last dates below.
struct TrendPlot {
    let title: String
    let unit: String
    let points: [(date: Date, value: Double?)]

    static let width = 320.0, height = 170.0
    static let left = 44.0, right = 14.0, top = 28.0, bottom = 30.0

    var svg: String {
        let values = points.compactMap(\.value)
        var low = values.min() ?? 0, high = values.max() ?? 1
        if high - low < 1e-9 { low -= 1; high += 1 }
        let first = points.first?.date.timeIntervalSince1970 ?? 0, last = points.last?.date.timeIntervalSince1970 ?? 1
        let plotWidth = Self.width - Self.left - Self.right, plotHeight = Self.height - Self.top - Self.bottom
        func x(_ date: Date) -> Double {
            last - first < 1 ? Self.left + plotWidth / 2 : Self.left + (date.timeIntervalSince1970 - first) / (last - first) * plotWidth
        }
        func y(_ value: Double) -> Double { Self.top + (high - value) / (high - low) * plotHeight }
        var parts = [
            #"<svg class="trend" viewBox="0 0 \#(number(Self.width)) \#(number(Self.height))" role="img" xmlns="http://www.w3.org/2000/svg">"#,
            #"<text class="title" x="\#(number(Self.left))" y="16">\#(escaped(title))\#(unit.isEmpty ? "" : " (\(escaped(unit)))")</text>"#,
        ]
        for tick in [low, (low + high) / 2, high] {
            parts.append(#"<line class="grid" x1="\#(number(Self.left))" x2="\#(number(Self.width - Self.right))" y1="\#(number(y(tick)))" y2="\#(number(y(tick)))"/>"#)
            parts.append(#"<text class="axis" x="\#(number(Self.left - 6))" y="\#(number(y(tick) + 4))" text-anchor="end">\#(number(tick))\#(escaped(unit))</text>"#)
        }
        var path = "", open = false
        for point in points {
            guard let value = point.value else { open = false; continue }
            path += "\(open ? "L" : "M")\(number(x(point.date))) \(number(y(value))) "
            open = true
            parts.append(#"<circle class="point" cx="\#(number(x(point.date)))" cy="\#(number(y(value)))" r="3.5"><title>\#(AthletePage.day(point.date)): \#(number(value))\#(escaped(unit))</title></circle>"#)
        }
        if !path.isEmpty { parts.insert(#"<path class="line" d="\#(path)"/>"#, at: 2) }
        if let firstDate = points.first?.date, let lastDate = points.last?.date {
            let baseline = number(Self.height - 8)
            parts.append(#"<text class="axis" x="\#(number(Self.left))" y="\#(baseline)">\#(AthletePage.day(firstDate))</text>"#)
            if points.count > 1 {
                parts.append(#"<text class="axis" x="\#(number(Self.width - Self.right))" y="\#(baseline)" text-anchor="end">\#(AthletePage.day(lastDate))</text>"#)
            }
        }
        parts.append("</svg>")
        return parts.joined(separator: "\n")
    }
}
