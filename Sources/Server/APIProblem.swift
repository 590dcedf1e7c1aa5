import Foundation
import Hummingbird
import Logging
import Rules

/// An answer that is not a success, as RFC 9457 problem details
/// (`application/problem+json`): a stable `type`, a title, the status and a
/// detail safe to show — never a stack trace, SQL, a server path or a secret.
public struct APIProblem: Error, Sendable, Equatable {
    /// The last part of the `type` URI (`urn:spotter:problem:<code>`), stable across releases.
    public var code: String
    public var status: HTTPResponse.Status
    public var title: String
    public var detail: String?

    public init(_ code: String, _ status: HTTPResponse.Status, _ title: String, detail: String? = nil) {
        self.code = code
        self.status = status
        self.title = title
        self.detail = detail
    }

    /// The `type` member.
    public var type: String { "urn:spotter:problem:\(code)" }

    static let unauthorized = APIProblem("unauthorized", .unauthorized, "An API key is needed", detail: "send Authorization: Bearer <key>")
    static let notFound = APIProblem("not-found", .notFound, "No such resource")
    static let internalError = APIProblem("internal", .internalServerError, "Something went wrong on our side")
    static let unavailable = APIProblem("unavailable", .serviceUnavailable, "The database cannot be reached")

    static func tooLarge(_ limit: Int? = nil) -> APIProblem {
        APIProblem("too-large", .contentTooLarge, "The request body is too large", detail: limit.map { "at most \($0) bytes here" })
    }

    static func invalid(_ detail: String) -> APIProblem { APIProblem("invalid-request", .badRequest, "The request is not valid", detail: detail) }

    func response() -> Response {
        var fields: [String: Any] = ["type": type, "title": title, "status": Int(status.code)]
        if let detail { fields["detail"] = detail }
        let body = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data()
        var headers: HTTPFields = [.contentType: "application/problem+json"]
        if status == .unauthorized { headers[.wwwAuthenticate] = "Bearer" }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

extension Response {
    /// `value` as a JSON answer: sorted keys, ISO 8601 times.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }
}

/// Every error an API route throws leaves as problem details: an `APIProblem`
/// as it is, Hummingbird's own (an unknown route, a body too large) by its
/// status, anything else as a 500 whose cause is logged, never shown. A
/// documented path asked with a method it does not take is 405 with `Allow`.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    let routes: DocumentedRoutes

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let problem as APIProblem {
            return problem.response()
        } catch let error as HTTPError {
            if error.status == .notFound, let methods = routes.methods(forPath: request.uri.path),
               !methods.contains(request.method.rawValue) {
                var response = APIProblem("method-not-allowed", .methodNotAllowed, "This method is not allowed here").response()
                response.headers[.allow] = methods.joined(separator: ", ")
                return response
            }
            return switch error.status {
            case .notFound: APIProblem.notFound.response()
            case .contentTooLarge: APIProblem.tooLarge().response()
            case .unsupportedMediaType: APIProblem("unsupported-media-type", .unsupportedMediaType, "This content type is not accepted here").response()
            case .methodNotAllowed: APIProblem("method-not-allowed", .methodNotAllowed, "This method is not allowed here").response()
            default: APIProblem("http-\(error.status.code)", error.status, error.status.reasonPhrase).response()
            }
        } catch {
            context.logger.error("request failed: \(String(reflecting: error))")
            return APIProblem.internalError.response()
        }
    }
}

extension RuleBook {
    /// Throws 422 `unknown-exercise`, listing the exercises, unless the rules have `exercise`.
    func requireExercise(_ exercise: String) throws {
        guard rules[exercise] == nil else { return }
        throw APIProblem("unknown-exercise", .unprocessableContent, "No such exercise",
                         detail: "\"\(exercise.prefix(60))\" is not one of \(rules.keys.sorted().joined(separator: ", "))")
    }
}
