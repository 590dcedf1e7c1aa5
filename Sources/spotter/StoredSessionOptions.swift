import ArgumentParser
import Foundation

/// Which stored sessions `rules diff` and `rules rescore` go through.
struct StoredSessionOptions: ParsableArguments {
    @Option(help: "Only this organization's sessions (its id).")
    var organization: String?

    @Option(help: "Only sessions made since this time or date (ISO 8601).")
    var since: String?

    var organizationID: UUID? { organization.flatMap(UUID.init(uuidString:)) }
    var sinceDate: Date? { since.flatMap(Spotter.WebhooksCommand.Replay.time) }

    func validate() throws {
        if let organization, UUID(uuidString: organization) == nil { throw ValidationError("--organization takes an organization's id (a UUID)") }
        if let since, sinceDate == nil {
            throw ValidationError("--since \(since): not an ISO 8601 time or date (2026-11-23T10:00:00Z, 2026-11-23)")
        }
    }
}

/// A rule version as given on the command line: `3` or `squat@3`; nil when it is neither.
func ruleVersionNumber(_ text: String) -> Int? {
    guard let number = Int(text.split(separator: "@").last ?? ""), number > 0 else { return nil }
    return number
}
