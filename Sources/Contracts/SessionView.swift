import Foundation

/// A session as clients see it (contracts §6, `GET /v1/sessions/{id}`): the API
/// answers with it and the command line prints it, from the store's rows.
public struct SessionView: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable {
        case queued, running, succeeded, failed
    }

    @LowercasedID public var id: UUID
    public var status: Status
    public var exercise: String
    /// Why it failed (or that it was cancelled), in words safe to show; only when `failed`.
    public var error: String?
    /// Only when `succeeded`.
    public var repCount: Int?
    /// Where its report is, once it is `succeeded`.
    public var reportURL: String?

    public init(id: UUID, status: Status, exercise: String, error: String? = nil, repCount: Int? = nil) {
        self.id = id
        self.status = status
        self.exercise = exercise
        self.error = status == .failed ? error : nil
        self.repCount = status == .succeeded ? repCount : nil
        self.reportURL = status == .succeeded ? "/v1/sessions/\(id.uuidString.lowercased())/report" : nil
    }

    enum CodingKeys: String, CodingKey {
        case id, status, exercise, error
        case repCount = "rep_count", reportURL = "report_url"
    }
}
