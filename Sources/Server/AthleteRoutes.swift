import Foundation
import Hummingbird
import Postgres
import Store

/// `GET /v1/athletes/{athlete}/trends[?exercise=E]`: an athlete's analysed sessions over time.
struct AthleteRoutes {
    let database: any PostgresClient

    /// The answer: the athlete as the client names them, the exercise asked for, and the points.
    struct Trends: Encodable {
        var athlete: String
        var exercise: String?
        var sessions: [TrendPoint]
    }

    func add(to group: RouterGroup<APIRequestContext>) {
        group.get("athletes/:athlete/trends") { request, context in
            guard case .organization(let organizationID) = try context.scope, let athlete = context.parameters.get("athlete"),
                  !athlete.isEmpty, athlete.count <= Athletes.maxReferenceLength
            else { throw APIProblem.notFound }
            let exercise = request.uri.queryParameters.get("exercise")
            guard let points = try await AthleteTrends.points(
                reference: athlete, exercise: exercise, organizationID: organizationID, on: database)
            else { throw APIProblem.notFound }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            encoder.dateEncodingStrategy = .iso8601
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(Trends(athlete: athlete, exercise: exercise, sessions: points)))))
        }
    }
}
