import Contracts
import Foundation
import Postgres
import Rules

/// Exercise rules as stored: every version once, its text never changed
/// (migration 0010 refuses it). Versions are published by admins (`spotter
/// rules publish`, `rollback`), or recorded by a worker that scores with its
/// own rule files, so that every report's `rules_version` names a stored text.
/// The newest published version of an exercise is its current one.
public enum RuleVersions {
    /// What recording a text did.
    public enum Outcome: Sendable, Equatable {
        case recorded
        /// The same version with the same text was stored before.
        case alreadyRecorded
    }

    /// What publishing did.
    public enum Publication: Sendable, Equatable {
        /// A new version with this number, now the current one.
        case published(Int)
        /// The text is the current published version already (this number).
        case unchanged(Int)
    }

    /// One stored version of an exercise's rules.
    public struct Version: Sendable, Equatable {
        public var exercise: String
        public var number: Int
        /// Published by an admin, as opposed to recorded by a worker.
        public var published: Bool
        /// The exercise's current version: its newest published one.
        public var current: Bool
        public var author: String?
        public var message: String?
        public var storedAt: Date
        /// SHA-256 of the text, hex.
        public var sha256: String
        public var rulesVersion: String { "\(exercise)@\(number)" }
    }

    /// A version that was stored before with other text.
    public struct Conflict: Error, Sendable, CustomStringConvertible {
        public var exercise: String
        public var version: Int
        public var description: String {
            "\(exercise)@\(version) is already published with different contents; raise the rule's version to publish a change"
        }
    }

    /// A version asked for that is not stored.
    public struct UnknownVersion: Error, Sendable, CustomStringConvertible {
        public var exercise: String
        public var version: Int
        public var description: String { "there is no stored version \(exercise)@\(version) (`spotter rules versions \(exercise)` lists them)" }
    }

    /// Records the text a job is scored with, so that the report's
    /// `rules_version` names a stored text: stored the first time, the same
    /// text again is fine, another text under the same version is a `Conflict`
    /// (the file changed without a new version).
    public static func record(_ rule: ExerciseRule, on connection: any PostgresClient) async throws {
        _ = try await record(exercise: rule.exercise, version: rule.version, body: rule.text, on: connection)
    }

    /// Records `body` as version `version` of `exercise`, unpublished.
    public static func record(
        exercise: String, version: Int, body: String, on connection: any PostgresClient
    ) async throws -> Outcome {
        try await connection.transaction { session in
            let inserted = try session.query("""
                INSERT INTO rule_versions (exercise, version, body, body_sha256)
                VALUES ($1, $2, $3, encode(sha256(convert_to($3, 'UTF8')), 'hex'))
                ON CONFLICT (exercise, version) DO NOTHING
                """, [exercise, String(version), body])
            if inserted.affectedRows == 1 { return .recorded }
            let same = try session.query(
                "SELECT body = $3 AS same FROM rule_versions WHERE exercise = $1 AND version = $2", [exercise, String(version), body])
            guard try same.first?.decode("same", as: Bool.self) == true else {
                throw Conflict(exercise: exercise, version: version)
            }
            return .alreadyRecorded
        }
    }

    /// The text stored as version `version` of `exercise`, nil when there is none.
    public static func text(exercise: String, version: Int, on connection: any PostgresClient) async throws -> String? {
        try await connection.query(
            "SELECT body FROM rule_versions WHERE exercise = $1 AND version = $2", [exercise, String(version)]
        ).first?.decode("body", as: String.self)
    }

    /// The current (newest published) version of `exercise`, read as a rule;
    /// nil when none was ever published.
    public static func current(exercise: String, on connection: any PostgresClient) async throws -> ExerciseRule? {
        let rows = try await connection.query(
            "SELECT version, body FROM rule_versions WHERE exercise = $1 AND published ORDER BY id DESC LIMIT 1", [exercise])
        guard let row = rows.first else { return nil }
        return try ExerciseRule(yaml: try row.decode("body"), file: "\(exercise)@\(try row.decode("version", as: String.self)) (published)")
    }

    /// Publishes `rule`'s text as the exercise's new current version, by
    /// `author` with the changelog line `message`: numbered after every stored
    /// version of the exercise (or as the file says, if that is higher), its
    /// `version:` line set to the number. The current text again is `unchanged`.
    public static func publish(
        _ rule: ExerciseRule, author: String, message: String?, on connection: any PostgresClient
    ) async throws -> Publication {
        try await connection.transaction { session in
            _ = try session.query("SELECT pg_advisory_xact_lock(hashtext('spotter.rules:' || $1)) IS NULL AS locked", [rule.exercise])
            let current = try session.query(
                "SELECT version, body FROM rule_versions WHERE exercise = $1 AND published ORDER BY id DESC LIMIT 1", [rule.exercise]
            ).first
            if let current {
                let number = Int(try current.decode("version", as: String.self)) ?? 0
                if try rule.text(numbered: number) == (try current.decode("body", as: String.self)) { return .unchanged(number) }
            }
            let highest = try session.query(
                "SELECT coalesce(max(version::int), 0) AS highest FROM rule_versions WHERE exercise = $1", [rule.exercise]
            )[0].decode("highest", as: Int.self)
            let number = max(highest + 1, rule.version)
            try session.query("""
                INSERT INTO rule_versions (exercise, version, body, body_sha256, published, author, message)
                VALUES ($1, $2, $3, encode(sha256(convert_to($3, 'UTF8')), 'hex'), true, $4, $5)
                """, [rule.exercise, String(number), try rule.text(numbered: number), author, message])
            return .published(number)
        }
    }

    /// Version `version` of `exercise`, read as a rule; `UnknownVersion` when it is not stored.
    public static func rule(exercise: String, version: Int, on connection: any PostgresClient) async throws -> ExerciseRule {
        guard let text = try await text(exercise: exercise, version: version, on: connection) else {
            throw UnknownVersion(exercise: exercise, version: version)
        }
        return try ExerciseRule(yaml: text, file: "\(exercise)@\(version)")
    }

    /// The stored version a report names (`squat@3`), read as a rule;
    /// `UnknownVersion` when it is not stored or not such a name.
    public static func rule(rulesVersion: String, on connection: any PostgresClient) async throws -> ExerciseRule {
        guard let at = rulesVersion.lastIndex(of: "@"), let number = Int(rulesVersion[rulesVersion.index(after: at)...]) else {
            throw UnknownVersion(exercise: rulesVersion, version: 0)
        }
        return try await rule(exercise: String(rulesVersion[..<at]), version: number, on: connection)
    }

    /// Makes the text of `version` current again, as a new version (its own
    /// number, history kept).
    public static func rollback(
        exercise: String, to version: Int, author: String, message: String?, on connection: any PostgresClient
    ) async throws -> Publication {
        let rule = try await rule(exercise: exercise, version: version, on: connection)
        return try await publish(rule, author: author, message: message ?? "back to \(exercise)@\(version)", on: connection)
    }

    /// Every stored version of `exercise`, oldest first.
    public static func versions(exercise: String, on connection: any PostgresClient) async throws -> [Version] {
        let rows = try await connection.query("""
            SELECT version, published, author, message, published_at, body_sha256,
                   id = (SELECT max(id) FROM rule_versions WHERE exercise = $1 AND published) AS current
            FROM rule_versions WHERE exercise = $1 ORDER BY id
            """, [exercise])
        return try rows.map { row in
            Version(
                exercise: exercise, number: Int(try row.decode("version", as: String.self)) ?? 0,
                published: try row.decode("published"), current: try row.decode("current", as: Bool?.self) ?? false,
                author: try row.decode("author", as: String?.self), message: try row.decode("message", as: String?.self), storedAt: try row.decode("published_at"),
                sha256: try row.decode("body_sha256"))
        }
    }
}

extension RuleVersions.Conflict: DescribedFailure {
    /// The worker's rule file changed without a new version: fixable only by the operator.
    public var failureKind: FailureKind { .unavailable }
    public var safeMessage: String { "the rules installed here differ from the stored text: \(description)" }
}

extension RuleVersions.UnknownVersion: DescribedFailure {
    public var failureKind: FailureKind { .badInput }
    public var safeMessage: String { description }
}
