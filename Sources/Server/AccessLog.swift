import Hummingbird
import Logging

/// One structured log line per request, and the request counted in the metrics: method, route (the pattern, not the ids),
/// status and milliseconds — never a key, a query or a body. Outermost, so
/// that it logs the status the client got, problem details included.
struct AccessLog<Context: RequestContext>: RouterMiddleware {
    let logger: Logger
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = started.duration(to: .now)
        let metadata: Logger.Metadata = [
            "method": .string(request.method.rawValue), "route": .string(context.endpointPath ?? "unmatched"),
            "status": .stringConvertible(response.status.code),
            "ms": .stringConvertible(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000),
        ]
        logger.info("request", metadata: metadata)
        metrics.served(route: context.endpointPath ?? "unmatched", status: Int(response.status.code), after: elapsed)
        return response
    }
}
