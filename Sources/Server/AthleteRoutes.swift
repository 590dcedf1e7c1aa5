import Foundation
import Hummingbird
import Postgres
import ReportPages
import Rules
import Store

/// `GET /v1/athletes/{athlete}/trends[?exercise=E]`: an athlete's analysed
/// sessions over time; `…/report.html`: the same as a coach's page with plots.
struct AthleteRoutes {
    let database: any PostgresClient
    let rules: RuleBook

    /// The answer: the athlete as the client names them, the exercise asked for, and the points.
    struct Trends: Encodable {
        var athlete: String
        var exercise: String?
        var sessions: [TrendPoint]
    }

    func add(to group: RouterGroup<APIRequestContext>) {
        group.get("athletes/:athlete/trends") { request, context in
            let athlete = try Self.athlete(context)
            let exercise = request.uri.queryParameters.get("exercise").map { String($0) }
            if let exercise { try rules.requireExercise(exercise) }
            let points = try await points(athlete, exercise: exercise, context)
            return try Response.json(Trends(athlete: athlete, exercise: exercise, sessions: points))
        }
        group.get("athletes/:athlete/report.html") { _, context in
            let athlete = try Self.athlete(context)
            let sessions = try await points(athlete, exercise: nil, context).map { point in
                AthletePage.Session(
                    id: point.sessionID.uuidString.lowercased(), date: point.date, exercise: point.exercise, repCount: point.repCount,
                    holdMilliseconds: point.holdMilliseconds, rangeOfMotion: point.rangeOfMotion,
                    repDurationMilliseconds: point.repDurationMilliseconds, faultRate: point.faultRate)
            }
            let page = AthletePage(
                athlete: athlete, sessions: sessions, titles: rules.rules.mapValues(\.title),
                sessionPage: { "/v1/sessions/\($0)/report.html" })
            return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: page.html)))
        }
    }

    /// The athlete named in the path; 404 for a name no athlete can have.
    private static func athlete(_ context: APIRequestContext) throws -> String {
        guard let athlete = context.parameters.get("athlete"), !athlete.isEmpty, athlete.count <= Athletes.maxReferenceLength else {
            throw APIProblem.notFound
        }
        return athlete
    }

    /// The caller's organization's athlete's trend points; 404 when it has no such athlete.
    private func points(_ athlete: String, exercise: String?, _ context: APIRequestContext) async throws -> [TrendPoint] {
        guard let points = try await AthleteTrends.points(
            reference: athlete, exercise: exercise, organizationID: try context.organizationID, on: database)
        else { throw APIProblem.notFound }
        return points
    }
}
