import Contracts
import Foundation
import Postgres
import Rules

/// One analysed session of an athlete, as a point of their trends: when, how many
/// reps (or how long held), the reps' mean range of motion and duration, and the
/// share of reps with a fault.
public struct TrendPoint: Sendable, Equatable, Codable {
    @LowercasedID public var sessionID: UUID
    public var date: Date
    public var exercise: String
    public var repCount: Int
    public var holdMilliseconds: Int?
    /// The mean of the reps' `range_of_motion` metric, degrees; nil without reps.
    public var rangeOfMotion: Double?
    /// The mean rep duration, milliseconds (tempo); nil without reps.
    public var repDurationMilliseconds: Double?
    /// Reps with at least one fault over all reps; nil without reps.
    public var faultRate: Double?

    enum CodingKeys: String, CodingKey {
        case sessionID = "session_id", date, exercise, repCount = "rep_count", holdMilliseconds = "hold_ms"
        case rangeOfMotion = "range_of_motion", repDurationMilliseconds = "rep_duration_ms", faultRate = "fault_rate"
    }

    /// The point a stored report makes.
    init(sessionID: UUID, date: Date, report: SessionReport) {
        /// The mean to a tenth (of a degree, a millisecond): no more than the metrics say.
        func mean(_ values: [Double]) -> Double? {
            values.isEmpty ? nil : (values.reduce(0, +) / Double(values.count) * 10).rounded() / 10
        }
        self.sessionID = sessionID
        self.date = date
        exercise = report.exercise
        repCount = report.repCount
        holdMilliseconds = report.holdMilliseconds
        rangeOfMotion = mean(report.reps.compactMap { $0.metrics["range_of_motion"] })
        repDurationMilliseconds = mean(report.reps.map { Double($0.endMilliseconds - $0.startMilliseconds) })
        faultRate = report.reps.isEmpty ? nil : Double(report.reps.filter { !$0.faults.isEmpty }.count) / Double(report.reps.count)
    }
}

/// An athlete's analysed sessions over time, within one organization.
public enum AthleteTrends {
    /// The trend points of the organization's athlete `reference`, oldest
    /// first (of one exercise when given); nil when the organization has no such athlete.
    public static func points(
        reference: String, exercise: String?, organizationID: UUID, on connection: any PostgresClient
    ) async throws -> [TrendPoint]? {
        let athletes = try await connection.query(
            "SELECT id FROM athletes WHERE organization_id = $1 AND external_ref = $2", [organizationID, reference])
        guard let athlete = try athletes.first?.decode("id", as: UUID.self) else { return nil }
        let rows = try await connection.query(
            """
            SELECT s.id, s.created_at, latest.report::text AS report FROM sessions AS s
            JOIN LATERAL (SELECT report FROM analyses WHERE session_id = s.id ORDER BY created_at DESC LIMIT 1) AS latest ON true
            WHERE s.athlete_id = $1 AND s.organization_id = $2 AND ($3::text IS NULL OR s.exercise = $3)
            ORDER BY s.created_at, s.id
            """, [athlete, organizationID, exercise])
        return try rows.map { row in
            TrendPoint(
                sessionID: try row.decode("id"), date: try row.decode("created_at"),
                report: try SessionReport.decode(Data(try row.decode("report", as: String.self).utf8)))
        }
    }
}
