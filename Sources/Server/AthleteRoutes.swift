import Foundation
import Hummingbird
import Postgres
import Rules
import Store

/// `GET /v1/athletes/{athlete}/trends[?exercise=E]`: an athlete's analysed sessions over time.
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
            let organizationID = try context.organizationID
            guard let athlete = context.parameters.get("athlete"), !athlete.isEmpty, athlete.count <= Athletes.maxReferenceLength else {
                throw APIProblem.notFound
            }
            let exercise = request.uri.queryParameters.get("exercise").map { String($0) }
            if let exercise { try rules.requireExercise(exercise) }
            guard let points = try await AthleteTrends.points(
                reference: athlete, exercise: exercise, organizationID: organizationID, on: database)
            else { throw APIProblem.notFound }
            return try Response.json(Trends(athlete: athlete, exercise: exercise, sessions: points))
        }
    }
}
