import Contracts
import Foundation
import HTTPTypes
import Hummingbird
import ReportPages
import Rules
import Store

/// `/v1/sessions`: sessions from an uploaded video or track or a `video_url`,
/// their status, report and coach page.
struct SessionRoutes {
    let store: AnalysisStore
    let rules: RuleBook
    /// Where uploads go; nil: the server takes `video_url`s only.
    let uploads: Uploads?
    /// How a `video_url` is checked beyond its scheme; nil: the worker alone checks it, when it connects.
    let videoURLs: (any VideoURLPolicy)?

    /// `POST /v1/sessions` with `{"exercise", "video_url", "athlete"?}`.
    struct NewSession: Decodable {
        var exercise: String
        var videoURL: String
        var athlete: String?

        enum CodingKeys: String, CodingKey {
            case exercise, athlete
            case videoURL = "video_url"
        }
    }

    func add(to group: RouterGroup<APIRequestContext>) {
        group.post("sessions") { request, context in try await create(request, context) }
        group.get("sessions/:id") { _, context in
            let id = try Self.sessionID(context)
            guard let view = try await store.sessionView(sessionID: id, context.scope) else { throw APIProblem.notFound }
            return try Response.json(view)
        }
        group.get("sessions/:id/report") { _, context in
            guard let report = try await store.reportJSON(sessionID: try Self.sessionID(context), context.scope) else { throw APIProblem.notFound }
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: report)))
        }
        group.get("sessions/:id/report.html") { _, context in
            let id = try Self.sessionID(context)
            guard let stored = try await store.storedAnalysis(sessionID: id, context.scope) else { throw APIProblem.notFound }
            let thumbnails = try await store.thumbnails(sessionID: id, context.scope)
            let page = ReportPage(analysis: stored.analysis, exerciseTitle: stored.rule.title, thumbnails: thumbnails).html
            return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: page)))
        }
    }

    private func create(_ request: Request, _ context: APIRequestContext) async throws -> Response {
        let contentType = request.headers[.contentType]?.lowercased() ?? ""
        let session: NewSession, kind: JobKind
        // The query's parameters are for uploads; any given are checked whatever the body.
        let query = request.uri.queryParameters
        if let named = query.get("exercise") { try rules.requireExercise(String(named)) }
        if let athlete = query.get("athlete") { try Self.checkAthlete(String(athlete)) }
        // Before any upload is taken: a bad key must not cost a stored video.
        let idempotencyKey = try APIJSON.idempotencyKey(request)
        if contentType.hasPrefix("application/json") {
            session = try await Self.fromURL(request, context)
            do { try videoURLs?.check(session.videoURL) } catch let failure as any DescribedFailure {
                throw APIProblem("invalid-video-url", .unprocessableContent, "This video_url cannot be fetched", detail: failure.safeMessage)
            }
            kind = .analyzeVideo
        } else if contentType.hasPrefix("video/") || contentType.hasPrefix("application/x-ndjson") {
            let expected: Uploads.Expected = contentType.hasPrefix("video/") ? .video : .track
            guard let uploads else {
                throw APIProblem("uploads-disabled", .serviceUnavailable, "This server takes no uploads",
                                 detail: "send {\"exercise\", \"video_url\"} as application/json instead")
            }
            guard let exercise = query.get("exercise") else { throw APIProblem.invalid("name the exercise: ?exercise=…") }
            let digest = try await uploads.receive(request.body, as: expected)
            session = NewSession(exercise: exercise, videoURL: digest.sourceURI, athlete: query.get("athlete"))
            kind = expected == .video ? .analyzeVideo : .scoreTrack
        } else {
            throw APIProblem("unsupported-media-type", .unsupportedMediaType, "This content type is not accepted here",
                             detail: "send a video (video/*), a landmark track (application/x-ndjson) or {\"exercise\", \"video_url\"} (application/json)")
        }
        return try await enqueue(session, kind: kind, idempotencyKey: idempotencyKey, context)
    }

    /// `{"exercise", "video_url", "athlete"?}`, checked.
    private static func fromURL(_ request: Request, _ context: APIRequestContext) async throws -> NewSession {
        let body = try await APIJSON.decode(
            NewSession.self, request, context, fields: ["exercise", "video_url", "athlete"], shape: #"{"exercise": …, "video_url": …, "athlete"?: …}"#)
        guard let url = URL(string: body.videoURL), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
            throw APIProblem("invalid-video-url", .unprocessableContent, "video_url must be an http(s) URL")
        }
        return body
    }

    private func enqueue(
        _ session: NewSession, kind: JobKind, idempotencyKey given: String?, _ context: APIRequestContext
    ) async throws -> Response {
        try rules.requireExercise(session.exercise)
        if let athlete = session.athlete { try Self.checkAthlete(athlete) }
        let organizationID = try context.organizationID
        var athleteID: UUID?
        if let athlete = session.athlete {
            athleteID = try await Athletes.id(reference: athlete, organizationID: organizationID, on: store.queue.connection)
        }
        let idempotencyKey = given.map { "api:" + $0 } ?? "api-once:" + UUID().uuidString
        let (job, _) = try await store.queue.enqueue(AnalysisRequest(
            organizationID: organizationID, athleteID: athleteID, exercise: session.exercise, kind: kind,
            sourceURI: session.videoURL, idempotencyKey: idempotencyKey, origin: .client))
        guard let view = try await store.sessionView(sessionID: job.sessionID, .organization(organizationID)) else {
            throw APIProblem.internalError
        }
        return try Response.json(view, status: .accepted)
    }

    private static func checkAthlete(_ athlete: String) throws {
        guard athlete.isEmpty || athlete.count > Athletes.maxReferenceLength else { return }
        throw APIProblem.invalid("athlete must be 1 to \(Athletes.maxReferenceLength) characters")
    }

    private static func sessionID(_ context: APIRequestContext) throws -> UUID {
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw APIProblem.notFound }
        return id
    }
}

extension HTTPField.Name {
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
}
