import Foundation
import Postgres
import Rules

/// An event for the webhook dispatcher, written in the same transaction as what
/// it announces, so that none is lost and none announces something undone.
struct OutboxEvent {
    /// The stable `webhook-id` of every delivery of this event.
    var eventID: String
    var organizationID: UUID
    var type: String
    var payload: [String: PayloadValue]

    /// A JSON value of a payload; a stored payload reads back as it was written.
    enum PayloadValue: Codable, Equatable {
        case text(String)
        case number(Int)
        case flag(Bool)
        case object([String: PayloadValue])
        case null

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let flag = try? container.decode(Bool.self) {
                self = .flag(flag)
            } else if let number = try? container.decode(Int.self) {
                self = .number(number)
            } else if let text = try? container.decode(String.self) {
                self = .text(text)
            } else {
                self = .object(try container.decode([String: PayloadValue].self))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .text(let text): try container.encode(text)
            case .number(let number): try container.encode(number)
            case .flag(let flag): try container.encode(flag)
            case .object(let object): try container.encode(object)
            case .null: try container.encodeNil()
            }
        }
    }

    init(organizationID: UUID, type: String, payload: [String: PayloadValue]) {
        eventID = "msg_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        self.organizationID = organizationID
        self.type = type
        self.payload = payload.merging(["type": .text(type)]) { $1 }
    }

    static func analysisCompleted(job: Job, analysisID: UUID, report: SessionReport) -> OutboxEvent {
        let faultCounts = Dictionary(report.faults.map { ($0.code, 1) }, uniquingKeysWith: +)
        return OutboxEvent(organizationID: job.organizationID, type: "analysis.completed", payload: [
            "session_id": .text(job.sessionID.uuidString.lowercased()),
            "job_id": .number(Int(job.id)),
            "analysis_id": .text(analysisID.uuidString.lowercased()),
            "report_url": .text("/v1/sessions/\(job.sessionID.uuidString.lowercased())/report"),
            // A stored track scored again with another rule version (`spotter rules rescore`).
            "rescore": .flag(job.kind == .rescore),
            "summary": .object([
                "exercise": .text(report.exercise), "rep_count": .number(report.repCount),
                "hold_ms": report.holdMilliseconds.map { .number($0) } ?? .null, "fault_counts": .object(faultCounts.mapValues { .number($0) }),
            ]),
        ])
    }

    static func analysisFailed(job: Job, state: JobState, reason: String) -> OutboxEvent {
        OutboxEvent(organizationID: job.organizationID, type: "analysis.failed", payload: [
            "session_id": .text(job.sessionID.uuidString.lowercased()),
            "job_id": .number(Int(job.id)),
            "state": .text(state.rawValue),
            "reason": .text(reason),
        ])
    }

    func insert(_ session: PostgresSession) throws {
        try session.query("""
            INSERT INTO outbox_events (event_id, organization_id, event_type, payload) VALUES ($1, $2, $3, $4::jsonb)
            """, [eventID, organizationID, type, try AnalysisStore.json(payload)])
        try session.query("SELECT pg_notify($1, $2)", ["spotter_outbox", eventID])
    }
}
