import Foundation
import Synchronization
import Testing
import TestSupport

// The .postgresDatabase trait on the real server that ops/postgres runs.

@Suite(.postgresDatabase) struct FirstPostgresSuite {
    @Test func hasADatabaseOfItsOwn() async throws { try await checkOwnDatabase(making: "made_in_first_suite") }
}

@Suite(.postgresDatabase) struct SecondPostgresSuite {
    @Test func hasADatabaseOfItsOwn() async throws { try await checkOwnDatabase(making: "made_in_second_suite") }
}

@Suite struct PostgresDatabaseScopeTests {
    static let caseDatabases = Mutex<[String]>([])

    @Test(.postgresDatabase, arguments: [1, 2]) func eachTestCaseHasADatabaseOfItsOwn(_ number: Int) async throws {
        let name = try #require(databaseName(PostgresDatabase.url))
        #expect(try await psql(PostgresDatabase.url, "select current_database()") == name)
        let earlier = Self.caseDatabases.withLock { names in
            defer { names.append(name) }
            return names
        }
        #expect(!earlier.contains(name))
    }

    @Test(.postgresDatabase) func aNestedScopeHasAnotherDatabaseDroppedAfterIt() async throws {
        let outer = PostgresDatabase.url
        let inner = Mutex<String?>(nil)
        let trait: PostgresDatabase = .postgresDatabase
        try await trait.provideScope(for: try #require(Test.current), testCase: nil) {
            let url = PostgresDatabase.url
            inner.withLock { $0 = url }
            _ = try await psql(url, "create table made_inside (id int)")
        }
        let innerName = try #require(inner.withLock { $0 }.flatMap(databaseName))
        #expect(innerName != databaseName(outer))
        #expect(PostgresDatabase.current == outer)
        #expect(try await psql(outer, "select to_regclass('made_inside') is null") == "t")
        #expect(try await psql(outer, "select count(*) from pg_database where datname = '\(innerName)'") == "0")
    }

    @Test func outsideTheTraitThereIsNoDatabase() {
        #expect(PostgresDatabase.current == nil)
    }
}

/// The databases of the suites checked so far and the table each made.
private let suiteDatabases = Mutex<[(url: String, table: String)]>([])

/// Checks that the running suite's database exists under its URL's name, makes
/// `table` in it, and checks that the suites checked before have other
/// databases, whose tables are absent from this one.
private func checkOwnDatabase(making table: String) async throws {
    let url = PostgresDatabase.url
    let name = try #require(databaseName(url))
    #expect(name.hasPrefix("spotter_test_"))
    #expect(try await psql(url, "select current_database()") == name)
    _ = try await psql(url, "create table \(table) (id int)")
    #expect(try await psql(url, "select to_regclass('\(table)') is not null") == "t")
    let earlier = suiteDatabases.withLock { databases in
        defer { databases.append((url, table)) }
        return databases
    }
    for other in earlier {
        #expect(databaseName(other.url) != name)
        #expect(try await psql(url, "select to_regclass('\(other.table)') is null") == "t")
    }
}

/// The database a URL names: `NAME` in `postgresql://spotter@/NAME?host=…`.
private func databaseName(_ url: String) -> String? {
    guard url.hasPrefix("postgresql://"), let slash = url.dropFirst(13).firstIndex(of: "/") else { return nil }
    let name = url[url.index(after: slash)...].prefix { $0 != "?" }
    return name.isEmpty ? nil : String(name)
}

/// Runs one SQL command with psql on `url`; returns its unaligned output.
private func psql(_ url: String, _ sql: String) async throws -> String {
    let outcome = try await runSubprocess(URL(fileURLWithPath: "/usr/bin/psql"), [url, "-X", "-v", "ON_ERROR_STOP=1", "-Atc", sql])
    guard outcome.status == 0 else {
        throw PsqlError(description: "psql \(url) -c '\(sql)' failed: \(outcome.standardError)")
    }
    return String(decoding: outcome.standardOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

private struct PsqlError: Error, CustomStringConvertible {
    var description: String
}
