import Foundation
import Postgres
import Rules
import Store
import Testing
import TestSupport

/// Rule versions as admins publish and roll them back, and as workers record them.
@Suite("Publishing rule versions")
struct RuleVersionsTests {
    static func squat() throws -> ExerciseRule {
        try RuleBook.rule(for: "squat", in: StoreFixtures.repository.appendingPathComponent("Rules").path)
    }

    @Test("publishing numbers after every stored version, keeps the current text once, and rolls back as a new version", .postgresDatabase)
    func publishAndRollBack() async throws {
        let connection = try await migratedDatabase()
        let file = try Self.squat()
        #expect(try await RuleVersions.current(exercise: "squat", on: connection) == nil, "nothing published yet")
        // A worker recorded the file's version: it is stored, not published.
        try await RuleVersions.record(file, on: connection)
        #expect(try await RuleVersions.current(exercise: "squat", on: connection) == nil)

        let first = try await RuleVersions.publish(file, author: "ana", message: "as shipped", on: connection)
        #expect(first == .published(file.version + 1), "after the recorded version")
        #expect(try await RuleVersions.publish(file, author: "ana", message: nil, on: connection) == .unchanged(file.version + 1))
        let edited = try ExerciseRule(yaml: file.text.replacingOccurrences(of: "title: Back squat", with: "title: Squat"), file: "edited.yaml")
        #expect(try await RuleVersions.publish(edited, author: "ben", message: "shorter title", on: connection) == .published(file.version + 2))
        let current = try #require(try await RuleVersions.current(exercise: "squat", on: connection))
        let editedText = try edited.text(numbered: file.version + 2)
        #expect(current.version == file.version + 2 && current.title == "Squat" && current.text == editedText)

        let back = try await RuleVersions.rollback(exercise: "squat", to: file.version + 1, author: "ana", message: nil, on: connection)
        #expect(back == .published(file.version + 3))
        let restored = try #require(try await RuleVersions.current(exercise: "squat", on: connection))
        let restoredText = try file.text(numbered: file.version + 3)
        #expect(restored.title == "Back squat" && restored.text == restoredText)
        let versions = try await RuleVersions.versions(exercise: "squat", on: connection)
        #expect(versions.map(\.number) == [file.version, file.version + 1, file.version + 2, file.version + 3])
        #expect(versions.map(\.published) == [false, true, true, true] && versions.map(\.current) == [false, false, false, true])
        #expect(versions.map(\.author) == [nil, "ana", "ben", "ana"])
        #expect(versions.last?.message == "back to squat@\(file.version + 1)")
        await #expect(throws: RuleVersions.UnknownVersion.self) {
            _ = try await RuleVersions.rollback(exercise: "squat", to: 99, author: "ana", message: nil, on: connection)
        }
    }

    @Test("a stored version's text, number and exercise cannot be changed", .postgresDatabase)
    func immutable() async throws {
        let connection = try await migratedDatabase()
        _ = try await RuleVersions.publish(try Self.squat(), author: "ana", message: nil, on: connection)
        let error = await #expect(throws: PostgresError.self) {
            _ = try await connection.query("UPDATE rule_versions SET body = body || '# changed' WHERE exercise = 'squat'")
        }
        #expect(error?.serverMessage?.contains("cannot be changed") == true, "\(String(describing: error?.debugDescription))")
        await #expect(throws: PostgresError.self) {
            _ = try await connection.query("UPDATE rule_versions SET version = '42' WHERE exercise = 'squat'")
        }
    }

    @Test("a rule's text renumbered keeps everything but the version line's number")
    func renumbered() throws {
        let file = try Self.squat()
        let line = "version: \(file.version)"
        let rule = try ExerciseRule(yaml: file.text.replacingOccurrences(of: line, with: line + "   # the second"), file: "squat.yaml")
        let text = try rule.text(numbered: 7)
        #expect(text.contains("\nversion: 7 # the second\n"))
        #expect(text.replacingOccurrences(of: "version: 7 # the second", with: line + "   # the second") == rule.text)
        #expect(try ExerciseRule(yaml: text, file: "squat.yaml").version == 7)
    }
}
