import Foundation
import Rules

/// An SVG plot of a session's key signal over time: the signal, its thresholds,
/// the reps (or held spans) behind it, and a lane per fault code below it.
struct SignalPlot {
    let signal: KeySignal
    let report: SessionReport
    let heldSpans: [ClosedRange<Int>]

    static let width = 960.0
    static let plotHeight = 260.0
    static let left = 120.0, right = 90.0, top = 22.0
    static let laneHeight = 16.0
    /// More points than this are thinned to each stretch's lowest and highest.
    static let maximumPoints = 2400

    private var faultCodes: [String] { report.faults.map(\.code).reduce(into: []) { if !$0.contains($1) { $0.append($1) } } }
    private var plotBottom: Double { Self.top + Self.plotHeight }
    private var height: Double { plotBottom + 30 + Double(faultCodes.count) * Self.laneHeight + 8 }

    private var timeRange: ClosedRange<Int> {
        let first = signal.times.first ?? 0, last = signal.times.last ?? 0
        return first...max(last, first + 1)
    }

    private var valueRange: ClosedRange<Double> {
        let values = signal.values.compactMap { $0 } + signal.thresholds
        guard var low = values.min(), var high = values.max() else { return 0...1 }
        if high - low < 1e-9 { low -= 1; high += 1 }
        let margin = (high - low) * 0.06
        return (low - margin)...(high + margin)
    }

    func x(_ milliseconds: Int) -> Double {
        let range = timeRange
        let share = Double(milliseconds - range.lowerBound) / Double(range.upperBound - range.lowerBound)
        return Self.left + share * (Self.width - Self.left - Self.right)
    }

    func y(_ value: Double) -> Double {
        let range = valueRange
        return plotBottom - (value - range.lowerBound) / (range.upperBound - range.lowerBound) * Self.plotHeight
    }

    var svg: String {
        var parts = [
            #"<svg class="plot" viewBox="0 0 \#(number(Self.width)) \#(number(height))" role="img" xmlns="http://www.w3.org/2000/svg">"#,
            "<title>\(escaped(signal.name)) over time</title>",
        ]
        parts += spans() + grid() + thresholds() + [line()] + turns() + faultLanes()
        parts.append("</svg>")
        return parts.joined(separator: "\n")
    }

    /// Reps as alternating bands with their number; held spans in green.
    private func spans() -> [String] {
        var parts: [String] = []
        for held in heldSpans {
            parts.append(#"<rect class="held" x="\#(f(x(held.lowerBound)))" y="\#(f(Self.top))" width="\#(f(x(held.upperBound) - x(held.lowerBound)))" height="\#(f(Self.plotHeight))"><title>held \#(seconds(held.lowerBound))–\#(seconds(held.upperBound))</title></rect>"#)
        }
        for rep in report.reps {
            let start = x(rep.startMilliseconds), end = x(rep.endMilliseconds)
            let faulty = rep.faults.isEmpty ? "" : " faulty"
            let tip = "rep \(rep.index): \(seconds(rep.startMilliseconds))–\(seconds(rep.endMilliseconds))"
                + (rep.faults.isEmpty ? "" : ", " + rep.faults.joined(separator: ", "))
            parts.append(#"<rect class="rep\#(faulty)" x="\#(f(start))" y="\#(f(Self.top))" width="\#(f(max(end - start, 1)))" height="\#(f(Self.plotHeight))"><title>\#(escaped(tip))</title></rect>"#)
            parts.append(#"<text class="rep-label\#(faulty)" x="\#(f((start + end) / 2))" y="\#(f(Self.top - 6))">\#(rep.index)</text>"#)
        }
        return parts
    }

    /// Value ticks on the left, second ticks along the bottom.
    private func grid() -> [String] {
        var parts: [String] = []
        let values = valueRange
        let unit = signal.isAngle ? "°" : ""
        for tick in Self.ticks(values.lowerBound, values.upperBound, count: 5) {
            parts.append(#"<line class="grid" x1="\#(f(Self.left))" x2="\#(f(Self.width - Self.right))" y1="\#(f(y(tick)))" y2="\#(f(y(tick)))"/>"#)
            parts.append(#"<text class="axis" x="\#(f(Self.left - 6))" y="\#(f(y(tick) + 4))" text-anchor="end">\#(number(tick))\#(unit)</text>"#)
        }
        let range = timeRange
        for tick in Self.ticks(Double(range.lowerBound) / 1000, Double(range.upperBound) / 1000, count: 10) {
            let position = x(Int((tick * 1000).rounded()))
            parts.append(#"<line class="grid" x1="\#(f(position))" x2="\#(f(position))" y1="\#(f(Self.top))" y2="\#(f(plotBottom))"/>"#)
            parts.append(#"<text class="axis" x="\#(f(position))" y="\#(f(plotBottom + 16))" text-anchor="middle">\#(number(tick)) s</text>"#)
        }
        parts.append(#"<rect class="frame" x="\#(f(Self.left))" y="\#(f(Self.top))" width="\#(f(Self.width - Self.left - Self.right))" height="\#(f(Self.plotHeight))"/>"#)
        return parts
    }

    private func thresholds() -> [String] {
        let names = signal.thresholds.count == 2 && report.holdMilliseconds == nil ? ["rest", "active"] : ["limit", "limit"]
        // Two labels closer than a line of text apart are moved apart about their middle.
        var labelHeights = signal.thresholds.map { y($0) + 4 }
        if labelHeights.count == 2, abs(labelHeights[0] - labelHeights[1]) < 12 {
            let middle = (labelHeights[0] + labelHeights[1]) / 2, upper = labelHeights[0] <= labelHeights[1] ? 0 : 1
            labelHeights[upper] = middle - 6
            labelHeights[1 - upper] = middle + 6
        }
        return signal.thresholds.enumerated().map { index, value in
            let label = "\(names[min(index, 1)]) \(number(value))\(signal.isAngle ? "°" : "")"
            return #"<line class="threshold" x1="\#(f(Self.left))" x2="\#(f(Self.width - Self.right))" y1="\#(f(y(value)))" y2="\#(f(y(value)))"/><text class="threshold-label" x="\#(f(Self.width - Self.right + 6))" y="\#(f(labelHeights[index]))">\#(escaped(label))</text>"#
        }
    }

    /// The signal as a path, broken where it has no value.
    private func line() -> String {
        var path = ""
        var drawing = false
        for (time, value) in thinned() {
            guard let value else {
                drawing = false
                continue
            }
            path += "\(drawing ? "L" : "M")\(f(x(time))) \(f(y(value)))"
            drawing = true
        }
        return #"<path class="signal" d="\#(path)"/>"#
    }

    /// At most `maximumPoints` points: each stretch of frames gives its lowest and highest value.
    private func thinned() -> [(Int, Double?)] {
        let count = signal.times.count
        guard count > Self.maximumPoints else { return Array(zip(signal.times, signal.values)) }
        let stretch = (count + Self.maximumPoints / 2 - 1) / (Self.maximumPoints / 2)
        var points: [(Int, Double?)] = []
        for start in stride(from: 0, to: count, by: stretch) {
            let frames = start..<min(start + stretch, count)
            let present = frames.filter { signal.values[$0] != nil }
            guard let low = present.min(by: { signal.values[$0]! < signal.values[$1]! }),
                  let high = present.max(by: { signal.values[$0]! < signal.values[$1]! }) else {
                points.append((signal.times[frames.lowerBound], nil))
                continue
            }
            for frame in [low, high].sorted() { points.append((signal.times[frame], signal.values[frame])) }
        }
        return points
    }

    /// A dot at each rep's turn.
    private func turns() -> [String] {
        report.reps.compactMap { rep in
            guard let frame = signal.times.firstIndex(where: { $0 >= rep.bottomMilliseconds }),
                  let value = signal.values[frame] else { return nil }
            return #"<circle class="turn" cx="\#(f(x(rep.bottomMilliseconds)))" cy="\#(f(y(value)))" r="3.5"><title>rep \#(rep.index) turns at \#(seconds(rep.bottomMilliseconds)): \#(number(value))\#(signal.isAngle ? "°" : "")</title></circle>"#
        }
    }

    /// One lane per fault code under the plot, each fault a bar over its span.
    private func faultLanes() -> [String] {
        var parts: [String] = []
        for (lane, code) in faultCodes.enumerated() {
            let top = plotBottom + 28 + Double(lane) * Self.laneHeight
            parts.append(#"<text class="lane-label" x="\#(f(Self.left - 6))" y="\#(f(top + 11))" text-anchor="end">\#(escaped(code))</text>"#)
            parts.append(#"<line class="lane" x1="\#(f(Self.left))" x2="\#(f(Self.width - Self.right))" y1="\#(f(top + 7))" y2="\#(f(top + 7))"/>"#)
            for fault in report.faults where fault.code == code {
                let start = x(fault.startMilliseconds), end = max(x(fault.endMilliseconds), start + 4)
                parts.append(#"<rect class="fault \#(escaped(fault.severity))" x="\#(f(start))" y="\#(f(top + 1))" width="\#(f(end - start))" height="12" rx="2"><title>\#(escaped(fault.message))</title></rect>"#)
            }
        }
        return parts
    }

    /// Round tick values between `low` and `high`, about `count` of them.
    static func ticks(_ low: Double, _ high: Double, count: Int) -> [Double] {
        guard high > low else { return [low] }
        let rough = (high - low) / Double(count)
        let magnitude = pow(10, floor(log10(rough)))
        let step = [1.0, 2, 2.5, 5, 10].map { $0 * magnitude }.first { $0 >= rough } ?? rough
        var ticks: [Double] = []
        var tick = (low / step).rounded(.up) * step
        while tick <= high + step * 1e-9 {
            ticks.append(tick)
            tick += step
        }
        return ticks
    }

    private func f(_ value: Double) -> String { String(format: "%.1f", value) }
}
