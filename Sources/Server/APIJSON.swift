import Foundation
import Hummingbird

/// JSON request bodies: `application/json`, at most the context's 64 KiB, of one shape.
enum APIJSON {
    /// The body as `T`; 415 for another content type, 413 past the limit, 400
    /// (describing `shape`) for anything that does not decode or has a member
    /// not in `fields` (a misspelt `athelete` is an error, not ignored).
    static func decode<T: Decodable>(
        _ type: T.Type, _ request: Request, _ context: APIRequestContext, fields: Set<String>, shape: String
    ) async throws -> T {
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
            throw APIProblem("unsupported-media-type", .unsupportedMediaType, "This content type is not accepted here",
                             detail: "send \(shape) as application/json")
        }
        let bytes: ByteBuffer
        do { bytes = try await request.body.collect(upTo: context.maxUploadSize) } catch {
            throw APIProblem.tooLarge(context.maxUploadSize)
        }
        let data = Data(buffer: bytes)
        guard let value = try? JSONDecoder().decode(T.self, from: data) else {
            throw APIProblem.invalid("the body must be \(shape) as JSON")
        }
        let members = ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any])?.keys.sorted() ?? []
        if let unknown = members.first(where: { !fields.contains($0) }) {
            throw APIProblem.invalid("unknown member \"\(unknown.prefix(60))\": the body must be \(shape)")
        }
        return value
    }

    /// The request's `Idempotency-Key`, when it has one of 1 to 200 characters; 400 for another.
    static func idempotencyKey(_ request: Request) throws -> String? {
        guard let given = request.headers[.idempotencyKey] else { return nil }
        guard !given.isEmpty, given.count <= 200 else { throw APIProblem.invalid("Idempotency-Key must be 1 to 200 characters") }
        return given
    }
}
