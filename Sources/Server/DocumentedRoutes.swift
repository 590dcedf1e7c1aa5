import Foundation

/// The paths of the OpenAPI document and the methods each takes, so that a
/// method a path does not take is answered 405 with `Allow`, not 404.
struct DocumentedRoutes: Sendable {
    private let routes: [(segments: [String], methods: [String])]

    /// The routes of an OpenAPI document's `paths`.
    init(document: Data) {
        let paths = ((try? JSONSerialization.jsonObject(with: document)) as? [String: Any])?["paths"] as? [String: Any] ?? [:]
        let verbs = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
        routes = paths.map { path, item in
            let methods = ((item as? [String: Any])?.keys.filter(verbs.contains) ?? []).map { $0.uppercased() }.sorted()
            return (path.split(separator: "/").map(String.init), methods)
        }
    }

    /// The methods `path` takes, when it is a documented path; nil otherwise.
    func methods(forPath path: String) -> [String]? {
        let segments = path.split(separator: "/").map(String.init)
        return routes.first { route in
            route.segments.count == segments.count
                && zip(route.segments, segments).allSatisfy { template, given in template.hasPrefix("{") || template == given }
        }?.methods
    }
}
