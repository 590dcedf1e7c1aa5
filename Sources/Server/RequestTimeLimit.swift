import Hummingbird

/// A limit on a whole request's time, body included: a client that sends an
/// upload slowly enough never to be idle still cannot hold a connection, a
/// storage file and a database connection for ever. Past it the handler is
/// cancelled (an upload's partial file is discarded) and the answer is 408
/// `request-timeout`. Uploads (a video or track body) get `uploadLimit`,
/// anything else `limit`.
struct RequestTimeLimit<Context: RequestContext>: RouterMiddleware {
    let limit: Duration
    let uploadLimit: Duration

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let contentType = request.headers[.contentType]?.lowercased() ?? ""
        let isUpload = contentType.hasPrefix("video/") || contentType.hasPrefix("application/x-ndjson")
        let allowed = isUpload ? uploadLimit : limit
        return try await withoutActuallyEscaping(next) { next in
            // The group waits for both tasks before it returns, so `next` never outlives this call.
            let handler = UncheckedSendable(next)
            return try await withThrowingTaskGroup(of: Response?.self) { group in
                group.addTask { try await handler.value(request, context) }
                group.addTask {
                    try await Task.sleep(for: allowed)
                    return nil
                }
                defer { group.cancelAll() }
                guard let response = try await group.next() ?? nil else {
                    throw APIProblem("request-timeout", .requestTimeout, "The request took too long",
                                     detail: "a request must be done within \(allowed.components.seconds) s")
                }
                return response
            }
        }
    }
}

/// A value handed to a child task that cannot outlive its owner's scope.
private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
