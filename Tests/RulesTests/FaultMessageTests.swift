@testable import Rules
import Testing

@Suite("Fault messages")
struct FaultMessageTests {
    static func values(_ name: Substring) -> String? {
        ["value": "151", "limit": "165", "|value|": "12", "|limit|": "8"][String(name)]
    }

    @Test("every placeholder is filled, however often and wherever it stands")
    func placeholders() {
        #expect(FaultJudge.filled("Arms straightened only to {value}° overhead (target ≥ {limit}°)", Self.values)
            == "Arms straightened only to 151° overhead (target ≥ 165°)")
        #expect(FaultJudge.filled("{|value|}° back (limit {|limit|}°), {value} and {value}", Self.values) == "12° back (limit 8°), 151 and 151")
        #expect(FaultJudge.filled("{value}", Self.values) == "151")
    }

    @Test("braces that name nothing known, or never close, stay as written")
    func unknown() {
        #expect(FaultJudge.filled("no placeholders", Self.values) == "no placeholders")
        #expect(FaultJudge.filled("{speed} at {value}", Self.values) == "{speed} at 151")
        #expect(FaultJudge.filled("open { and {value", Self.values) == "open { and {value")
        #expect(FaultJudge.filled("{{value}}", Self.values) == "{151}")
    }
}
