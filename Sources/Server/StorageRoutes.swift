import Foundation
import Hummingbird
import Storage

/// `GET /v1/storage/{sha256}?expires=T&signature=S`: a stored upload, for the
/// worker that analyses it. No API key: the signature is the permission, for
/// one file until its time; anything else answers 404 alike.
struct StorageRoutes {
    let uploads: Uploads
    private let files = FileIO()

    init(uploads: Uploads) {
        self.uploads = uploads
    }

    func add(to router: Router<APIRequestContext>) {
        router.get("v1/storage/:sha256") { request, context in
            let query = request.uri.queryParameters
            guard let digest = context.parameters.get("sha256").flatMap(ContentDigest.init(hex:)),
                  let expires = query.get("expires").flatMap({ Int($0) }), let signature = query.get("signature"),
                  uploads.signing.isValid(signature, for: digest, expires: expires),
                  let path = uploads.store.path(of: digest)
            else { throw APIProblem.notFound }
            let body = try await files.loadFile(path: path, context: context)
            return Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: body)
        }
    }
}
