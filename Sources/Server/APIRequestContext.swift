import Foundation
import Hummingbird
import Store

/// A request's context: Hummingbird's core, and the API key that made the request once authenticated.
public struct APIRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The caller's key; set by `KeyAuthentication` on every `/v1` route.
    public var key: APIKey?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
    }

    /// JSON bodies of the API are small: a video goes as its own body (or by URL), never inside JSON.
    public var maxUploadSize: Int { 64 << 10 }

    /// The caller's organization: the only one whose data this request may reach.
    var organizationID: UUID {
        get throws {
            guard let key else { throw APIProblem.unauthorized }
            return key.organizationID
        }
    }

    /// `organizationID` as a store's scope.
    var scope: TenantScope {
        get throws { .organization(try organizationID) }
    }
}

/// Takes `Authorization: Bearer <key>` and puts the key in the context; no key,
/// or a key unknown, altered or revoked, is a 401 that says no more.
struct KeyAuthentication: RouterMiddleware {
    let keys: APIKeys

    func handle(
        _ request: Request, context: APIRequestContext, next: (Request, APIRequestContext) async throws -> Response
    ) async throws -> Response {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer "),
              let key = try await keys.authenticate(String(header.dropFirst("Bearer ".count)))
        else { throw APIProblem.unauthorized }
        var context = context
        context.key = key
        context.logger[metadataKey: "key"] = .string(key.prefix)
        return try await next(request, context)
    }
}
