import Foundation
import Testing

@testable import Postgres

@Suite("Values in PostgreSQL's text format")
struct PostgresValueTests {
    @Test("timestamps round-trip to the microsecond, before and after 1970")
    func timestamps() throws {
        for seconds in [0, 1_795_000_000.123456, -86_400.5, 1.000001] {
            let date = Date(timeIntervalSince1970: seconds)
            let text = PostgresTimestamp.format(date)
            let parsed = try #require(PostgresTimestamp.parse(text))
            #expect(abs(parsed.timeIntervalSince1970 - seconds) < 1e-6, "\(text)")
        }
        #expect(PostgresTimestamp.format(Date(timeIntervalSince1970: 0)) == "1970-01-01 00:00:00.000000+00")
        #expect(PostgresTimestamp.parse("2026-11-21 09:30:00+00")?.timeIntervalSince1970 == 1_795_253_400)
        #expect(PostgresTimestamp.parse("2026-11-21 09:30:00.5+00:00")?.timeIntervalSince1970 == 1_795_253_400.5)
        #expect(PostgresTimestamp.parse("2026-11-21 09:30:00+01") == nil)
        #expect(PostgresTimestamp.parse("yesterday") == nil)
    }

    @Test("bytea in hex form")
    func bytes() {
        #expect([UInt8](postgresText: "\\x00ff10Ab") == [0, 255, 16, 171])
        #expect([UInt8](postgresText: "\\x") == [])
        #expect([UInt8](postgresText: "\\x0") == nil)
        #expect([UInt8](postgresText: "00ff") == nil)
        #expect([UInt8](postgresText: "\\xzz") == nil)
    }

    @Test("numbers, booleans and ids")
    func scalars() {
        #expect(Int(postgresText: "-42") == -42)
        #expect(Int(postgresText: "4.2") == nil)
        #expect(Double(postgresText: "NaN")?.isNaN == true)
        #expect(Double(postgresText: "-Infinity") == -.infinity)
        #expect(Bool(postgresText: "t") == true && Bool(postgresText: "f") == false && Bool(postgresText: "true") == nil)
        let id = UUID()
        #expect(UUID(postgresText: id.uuidString.lowercased()) == id)
        #expect(Optional<Int>.none.postgresValue == .null)
    }
}
