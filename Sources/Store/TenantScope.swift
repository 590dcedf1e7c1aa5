import Foundation

/// Whose data a read or a change may reach. Every function an API could call
/// takes one: a client's requests reach only their own organization's data; only
/// the operator's tools (the command line) say `.allOrganizations`, by name.
public enum TenantScope: Sendable, Equatable {
    /// One organization's data; another's answers exactly like an unknown one.
    case organization(UUID)
    /// Every organization's data: the operator's command line only.
    case allOrganizations

    /// The organization to filter on, nil for every organization (bound as SQL `NULL`).
    public var organizationID: UUID? {
        if case .organization(let id) = self { id } else { nil }
    }
}
