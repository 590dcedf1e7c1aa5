import Foundation
import Rules

/// A report as a few lines for a terminal.
struct ReportSummary {
    let report: SessionReport

    var text: String {
        let view = report.view.map { "\($0.rawValue) view" } ?? "camera view unknown"
        var lines = ["\(report.source.path): \(report.exercise) (\(report.rulesVersion)), \(view), count confidence \(report.countConfidence.rawValue)"]
        if let held = report.holdMilliseconds {
            lines.append("held \(seconds(held)), \(count(report.faults.count, "fault"))")
        } else {
            let faulty = report.reps.filter { !$0.faults.isEmpty }.count
            lines.append("\(count(report.repCount, "rep")), \(faulty) with faults")
            for rep in report.reps {
                let faults = rep.faults.isEmpty ? "" : "  " + rep.faults.joined(separator: ", ")
                lines.append("  rep \(rep.index)  \(seconds(rep.startMilliseconds))–\(seconds(rep.endMilliseconds))\(faults)")
            }
        }
        if !report.faults.isEmpty {
            lines.append("faults:")
            for fault in report.faults {
                let rep = fault.rep.map { "rep \($0)  " } ?? ""
                lines.append("  \(seconds(fault.startMilliseconds))  \(rep)\(fault.code): \(fault.message)")
            }
        }
        if !report.excluded.isEmpty {
            lines.append("left out:")
            lines += report.excluded.map { "  \(seconds($0.startMilliseconds))–\(seconds($0.endMilliseconds))  \($0.reason)" }
        }
        if !report.warnings.isEmpty {
            lines.append("warnings:")
            lines += report.warnings.map { "  \($0)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func seconds(_ milliseconds: Int) -> String { String(format: "%.2f s", Double(milliseconds) / 1000) }

    private func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
