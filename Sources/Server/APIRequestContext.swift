import Foundation
import Hummingbird
import Store
import Synchronization

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
///
/// A key the database accepted is trusted for `trustedFor` (5 s) without asking
/// again, so a busy client costs one lookup (and one `last_used_at` write) per
/// key every few seconds, not one per request; a revoked key stops working
/// within that time. When the trust runs out, one request asks the database
/// again while the others go on under the old answer for the moment it takes
/// (not a lookup each: 64 requests at once would queue on the key's row).
/// Refusals are never remembered.
final class KeyAuthentication: RouterMiddleware, Sendable {
    typealias Context = APIRequestContext

    let keys: APIKeys
    let trustedFor: Duration
    private let clock = ContinuousClock()
    /// Accepted keys by the text presented, until when they are trusted, and
    /// whether a request is asking the database again; cleared when it grows past `capacity`.
    private let accepted = Mutex<[String: (key: APIKey, until: ContinuousClock.Instant, asking: Bool)]>([:])
    private static let capacity = 10_000

    init(keys: APIKeys, trustedFor: Duration = .seconds(5)) {
        self.keys = keys
        self.trustedFor = trustedFor
    }

    func handle(
        _ request: Request, context: APIRequestContext, next: (Request, APIRequestContext) async throws -> Response
    ) async throws -> Response {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { throw APIProblem.unauthorized }
        let presented = String(header.dropFirst("Bearer ".count))
        let now = clock.now
        // A trusted key; or one being asked about by another request; or nil: this request asks.
        var key = accepted.withLock { accepted -> APIKey? in
            guard let entry = accepted[presented] else { return nil }
            if entry.until > now || entry.asking { return entry.key }
            accepted[presented]?.asking = true
            return nil
        }
        if key == nil {
            let found: APIKey?
            do { found = try await keys.authenticate(presented) } catch {
                accepted.withLock { $0[presented]?.asking = false }
                throw error
            }
            accepted.withLock { accepted in
                if accepted.count >= Self.capacity { accepted.removeAll() }
                accepted[presented] = found.map { ($0, now + trustedFor, false) }
            }
            guard let found else { throw APIProblem.unauthorized }
            key = found
        }
        var context = context
        context.key = key
        context.logger[metadataKey: "key"] = .string(key!.prefix)
        return try await next(request, context)
    }
}
