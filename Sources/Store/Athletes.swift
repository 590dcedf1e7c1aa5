import Foundation
import Postgres

/// Athletes as clients name them: any string of theirs (up to 200 characters),
/// an athlete of the organization made on first use.
public enum Athletes {
    /// The longest client reference for an athlete.
    public static let maxReferenceLength = 200

    /// The id of the organization's athlete `reference`, made when it is new
    /// (concurrent first uses make one).
    public static func id(reference: String, organizationID: UUID, on connection: any PostgresClient) async throws -> UUID {
        try await connection.query(
            """
            INSERT INTO athletes (organization_id, external_ref, display_name) VALUES ($1, $2, $2)
            ON CONFLICT (organization_id, external_ref) DO UPDATE SET external_ref = EXCLUDED.external_ref
            RETURNING id
            """, [organizationID, reference])[0].decode("id")
    }
}
