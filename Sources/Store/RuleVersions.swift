import Contracts
import Postgres
import Rules

/// Exercise rules as admins published them: each version once, never changed.
public enum RuleVersions {
    /// What publishing did.
    public enum Outcome: Sendable, Equatable {
        case published
        /// The same version with the same text was published before.
        case alreadyPublished
    }

    /// A version that was published before with other text.
    public struct Conflict: Error, Sendable, CustomStringConvertible {
        public var exercise: String
        public var version: Int
        public var description: String {
            "\(exercise)@\(version) is already published with different contents; raise the rule's version to publish a change"
        }
    }

    /// Records the text a job is scored with, so that the report's
    /// `rules_version` names a stored text: stored the first time, the same
    /// text again is fine, another text under the same version is a `Conflict`
    /// (the file changed without a new version).
    public static func record(_ rule: ExerciseRule, on connection: any PostgresClient) async throws {
        _ = try await publish(exercise: rule.exercise, version: rule.version, body: rule.text, on: connection)
    }

    /// The text stored as version `version` of `exercise`, nil when there is none.
    public static func text(exercise: String, version: Int, on connection: any PostgresClient) async throws -> String? {
        try await connection.query(
            "SELECT body FROM rule_versions WHERE exercise = $1 AND version = $2", [exercise, String(version)]
        ).first?.decode("body", as: String.self)
    }

    /// Records `body` as version `version` of `exercise`.
    public static func publish(
        exercise: String, version: Int, body: String, on connection: any PostgresClient
    ) async throws -> Outcome {
        try await connection.transaction { session in
            let inserted = try session.query("""
                INSERT INTO rule_versions (exercise, version, body, body_sha256)
                VALUES ($1, $2, $3, encode(sha256(convert_to($3, 'UTF8')), 'hex'))
                ON CONFLICT (exercise, version) DO NOTHING
                """, [exercise, String(version), body])
            if inserted.affectedRows == 1 { return .published }
            let same = try session.query("""
                SELECT body = $3 AS same FROM rule_versions WHERE exercise = $1 AND version = $2
                """, [exercise, String(version), body])
            guard try same.first?.decode("same", as: Bool.self) == true else {
                throw Conflict(exercise: exercise, version: version)
            }
            return .alreadyPublished
        }
    }
}

extension RuleVersions.Conflict: DescribedFailure {
    /// The worker's rule file changed without a new version: fixable only by the operator.
    public var failureKind: FailureKind { .unavailable }
    public var safeMessage: String { "the rules installed here differ from the stored text: \(description)" }
}
