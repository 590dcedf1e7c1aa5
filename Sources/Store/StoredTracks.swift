import Foundation
import LandmarkTracks
import Postgres

/// A session's stored landmark track, for scoring again without the models.
public struct StoredTrack: Sendable {
    public var sessionID: UUID
    public var organizationID: UUID
    public var createdAt: Date
    public var track: LandmarkTrack
}

/// The packed landmark tracks of analysed sessions, read a page at a time
/// (newest first) so that any number of them can be gone through in bounded memory.
public enum StoredTracks {
    /// Up to `limit` sessions of `exercise` with a stored track — of one
    /// organization, or all; made since `since`, or ever — newest first,
    /// after `cursor` (the last session of the page before).
    public static func page(
        exercise: String, organizationID: UUID?, since: Date?, after cursor: StoredTrack?, limit: Int,
        on connection: any PostgresClient
    ) async throws -> [StoredTrack] {
        let rows = try await connection.query("""
            SELECT s.id, s.organization_id, s.created_at, t.data FROM landmark_tracks AS t JOIN sessions AS s ON s.id = t.session_id
            WHERE s.exercise = $1 AND ($2::uuid IS NULL OR s.organization_id = $2) AND ($3::timestamptz IS NULL OR s.created_at >= $3)
              AND ($4::timestamptz IS NULL OR (s.created_at, s.id) < ($4, $5::uuid))
            ORDER BY s.created_at DESC, s.id DESC LIMIT $6
            """, [exercise, organizationID, since, cursor?.createdAt, cursor?.sessionID, limit])
        return try rows.map { row in
            let id: UUID = try row.decode("id")
            return StoredTrack(
                sessionID: id, organizationID: try row.decode("organization_id"), createdAt: try row.decode("created_at"),
                track: try LandmarkTrackPacking.unpack(try row.decode("data"), name: "the stored track of session \(id)"))
        }
    }
}
