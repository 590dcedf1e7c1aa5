import Foundation
import LandmarkTracks
import Testing

/// Frame lines as the track reader reads them, against the same lines decoded by `JSONDecoder`.
@Suite("Reading frame lines as JSONDecoder decodes them")
struct FrameParserTests {
    static let header = #"{"format":"spotter.landmarks/v1","fps":30,"width":640,"height":480,"source":"a.mp4"}"#

    /// The frame the track reader reads from `line`, the second line of a track.
    static func read(_ line: [UInt8]) throws -> LandmarkTrackFrame? {
        try LandmarkTrack(contentsOf: Data(Array(header.utf8) + [0x0A] + line), name: "t.jsonl").frames.first
    }

    static func decoded(_ line: [UInt8]) -> LandmarkTrackFrame? {
        try? JSONDecoder().decode(LandmarkTrackFrame.self, from: Data(line))
    }

    /// Equal frames, with every number the same down to the sign of zero.
    static func same(_ a: LandmarkTrackFrame?, _ b: LandmarkTrackFrame?) -> Bool {
        guard let a, let b else { return false }
        func bits(_ frame: LandmarkTrackFrame) -> [UInt32] {
            let rows = frame.poses.flatMap { $0.landmarks + $0.world } + (frame.hands ?? []).flatMap { $0.landmarks + $0.world }
            return rows.flatMap { [$0.x, $0.y, $0.z, $0.visibility ?? -.infinity, $0.presence ?? -.infinity] }.map(\.bitPattern)
                + (frame.hands ?? []).map(\.score.bitPattern)
        }
        return a == b && bits(a) == bits(b)
    }

    /// The frame the reader reads from `line` when JSONDecoder decodes it; `nil` when both refuse it.
    static func readAsDecoded(_ line: [UInt8]) throws -> LandmarkTrackFrame? {
        let expected = decoded(line)
        do {
            let frame = try read(line)
            #expect(Self.same(expected, frame), "\(String(decoding: line, as: UTF8.self))")
            return frame
        } catch let error as TrackError {
            #expect(expected == nil, "\(error): \(String(decoding: line, as: UTF8.self))")
            return nil
        }
    }

    @Test("random frames, in any JSON layout, read as JSONDecoder decodes them")
    func randomFrames() throws {
        var writer = RandomFrameLines(seed: 1)
        var read = 0
        for _ in 0..<400 where try Self.readAsDecoded(Array(writer.line().utf8)) != nil { read += 1 }
        #expect(read > 350, "most random frames are valid")
    }

    @Test("every truncation of a frame line is refused")
    func truncated() throws {
        var writer = RandomFrameLines(seed: 2)
        let line = Array(writer.line(maximumPoses: 1, layout: false).utf8)
        #expect(try Self.read(line) != nil)
        for length in 1..<line.count {
            #expect(throws: TrackError.self, "\(length)") { try Self.read(Array(line[..<length])) }
        }
    }

    @Test("lines with bytes changed are refused, or read as JSONDecoder decodes them")
    func changedBytes() throws {
        var writer = RandomFrameLines(seed: 3)
        var random = SeededGenerator(state: 33)
        let significant = Array(#"{}[],:"\ 0123456789.eE+-ntfu"#.utf8) + [0x09, 0x0D, 0x00, 0x80, 0xC3, 0xFF]
        var read = 0
        for _ in 0..<20 {
            let line = Array(writer.line(maximumPoses: 1).utf8)
            for _ in 0..<100 {
                var changed = line
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    let byte = random.next() % 2 == 0
                        ? significant[Int.random(in: 0..<significant.count, using: &random)]
                        : UInt8.random(in: 0...255, using: &random)
                    changed[Int.random(in: 0..<changed.count, using: &random)] = byte == 0x0A ? 0x20 : byte
                }
                let expected = Self.decoded(changed)
                do {
                    let frame = try #require(try Self.read(changed))
                    read += 1
                    #expect(Self.same(expected, frame), "\(String(decoding: changed, as: UTF8.self))")
                } catch is TrackError {}
            }
        }
        #expect(read > 100, "some changes keep the line valid")
    }

    @Test("values nested 10,000 deep in an extra key are refused, not a stack overflow")
    func deepNesting() throws {
        let frame = #"{"t_ms":1,"poses":[],"x":"#
        let deep = [
            String(repeating: "[", count: 10_000),
            String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000),
            String(repeating: #"{"a":"#, count: 10_000),
        ]
        for nesting in deep {
            let error = #expect(throws: TrackError.self) { try Self.read(Array((frame + nesting + "}").utf8)) }
            #expect(error?.reason.contains("nested deeper than 64") == true, "\(error?.description ?? "")")
        }
        let nested = frame + String(repeating: "[", count: 60) + String(repeating: "]", count: 60) + "}"
        #expect(try Self.readAsDecoded(Array(nested.utf8)) != nil)
    }

    static let row = "[0.5,0.5,0]"
    static let rows = "[" + Array(repeating: row, count: 33).joined(separator: ",") + "]"
    static let handRows = "[" + Array(repeating: row, count: 21).joined(separator: ",") + "]"
    static func hand(_ handedness: String) -> String {
        #"{"handedness":\#(handedness),"score":0.9,"landmarks":\#(handRows),"world":\#(handRows)}"#
    }

    static let accepted: [(String, String)] = [
        ("t_ms written 33.0", #"{"t_ms":33.0,"poses":[]}"#),
        ("t_ms written 3.3e1", #"{"t_ms":3.3e1,"poses":[]}"#),
        ("t_ms written -0", #"{"t_ms":-0,"poses":[]}"#),
        ("hands null", #"{"t_ms":1,"poses":[],"hands":null}"#),
        ("hands empty", #"{"t_ms":1,"poses":[],"hands":[]}"#),
        ("keys with escapes", #"{"t\u005fms":1,"\u0070oses":[]}"#),
        ("a key given twice counts the first time", #"{"t_ms":1,"poses":[],"t_ms":"x","hands":null,"hands":[1]}"#),
        ("handedness with escapes and a surrogate pair", #"{"t_ms":1,"poses":[],"hands":[\#(hand(#""L\u00e9ft \ud83d\ude00 \"\\\/\b\f\n\r\t\u0000""#))]}"#),
        ("handedness in UTF-8", #"{"t_ms":1,"poses":[],"hands":[\#(hand("\"Gauche é 😀\""))]}"#),
        ("numbers of every notation", #"{"t_ms":1,"poses":[{"landmarks":[[1E+2,-3.2E+2,1e-05,-0,0e99],\#(Array(repeating: row, count: 32).joined(separator: ","))],"world":\#(rows)}]}"#),
        ("the smallest Float", #"{"t_ms":1,"poses":[{"landmarks":[[1e-45,1.4e-45,3.4028235e38],\#(Array(repeating: row, count: 32).joined(separator: ","))],"world":\#(rows)}]}"#),
        ("whitespace everywhere", " \t{ \"t_ms\" :\r1 , \"poses\" : [ ] , \"hands\" : null } \t"),
    ]

    @Test("JSON that the contract allows reads as JSONDecoder decodes it", arguments: accepted.map(\.0))
    func acceptedLines(_ name: String) throws {
        let line = Self.accepted.first { $0.0 == name }!.1
        #expect(Self.decoded(Array(line.utf8)) != nil, "JSONDecoder decodes it")
        #expect(try Self.readAsDecoded(Array(line.utf8)) != nil)
    }

    static let refused: [(String, String, String)] = [
        ("t_ms not whole", #"{"t_ms":33.5,"poses":[]}"#, "malformed frame at column 9: t_ms 33.5 is not a whole number"),
        ("t_ms too large", #"{"t_ms":1e20,"poses":[]}"#, "t_ms 1e20 is too large"),
        ("t_ms null", #"{"t_ms":null,"poses":[]}"#, "malformed frame at column 9: expected a number, found null"),
        ("poses null", #"{"t_ms":1,"poses":null}"#, "malformed frame at column 19: expected an array, found null"),
        ("no poses", #"{"t_ms":1}"#, #"the frame has no "poses""#),
        ("no world", #"{"t_ms":1,"poses":[{"landmarks":[]}]}"#, #"the frame has no "world" at poses[0]"#),
        ("no score", #"{"t_ms":1,"poses":[],"hands":[{"handedness":"Left","landmarks":[],"world":[]}]}"#, #"no "score" at hands[0]"#),
        ("a string for a number", #"{"t_ms":1,"poses":[{"landmarks":[[0.5,"0.5",0]]}]}"#, "malformed frame at column 39: expected a number, found a string"),
        ("a row of 4", #"{"t_ms":1,"poses":[{"landmarks":[[1,2,3,4]]}]}"#, "malformed frame at column 34: a landmark row has 3 or 5 numbers, not 4"),
        ("a row of 6", #"{"t_ms":1,"poses":[{"landmarks":[[1,2,3,4,5,[6]]]}]}"#, "a landmark row has 3 or 5 numbers, not 6"),
        ("not a number", #"{"t_ms":1,"poses":[{"landmarks":[[0.5,x]]}]}"#, "not a JSON object (frame line) at column 39: expected a number, found \"x\""),
        ("a number cut short", #"{"t_ms":1,"poses":[{"landmarks":[[0.5,1.]]}]}"#, "at column 41: expected a digit, found \"]\""),
        ("a leading zero", #"{"t_ms":01,"poses":[]}"#, "expected \",\" or \"}\", found a number"),
        ("too large for a Float", #"{"t_ms":1,"poses":[{"landmarks":[[1e39,0,0]]}]}"#, "1e39 does not fit in a Float"),
        ("too small for a Float", #"{"t_ms":1,"poses":[{"landmarks":[[1e-50,0,0]]}]}"#, "1e-50 does not fit in a Float"),
        ("not finite", #"{"t_ms":1,"poses":[{"landmarks":[[NaN,0,0]]}]}"#, "expected a number, found \"N\""),
        ("trailing comma", #"{"t_ms":1,"poses":[],}"#, "expected a key in quotes, found \"}\""),
        ("trailing garbage", #"{"t_ms":1,"poses":[]} x"#, "at column 23: expected the end of the line, found \"x\""),
        ("two objects", #"{"t_ms":1,"poses":[]}{}"#, "expected the end of the line, found an object"),
        ("cut short", #"{"t_ms":1,"poses":["#, "expected an object, found the end of the line"),
        ("an unclosed string", #"{"t_ms":1,"poses":[],"x":"abc"#, "expected the string's closing quote, found the end of the line"),
        ("a control character in a string", "{\"t_ms\":1,\"poses\":[],\"x\":\"a\u{01}\"}", "found byte 0x01"),
        ("an unknown escape", #"{"t_ms":1,"poses":[],"x":"\q"}"#, "expected an escape"),
        ("a bad \\u escape", #"{"t_ms":1,"poses":[],"x":"\u12g4"}"#, "expected a hex digit, found \"g\""),
        ("an unpaired surrogate", #"{"t_ms":1,"poses":[],"hands":[\#(hand(#""L\ud83d""#))]}"#, "an unpaired surrogate"),
        ("a misspelled literal", #"{"t_ms":1,"poses":[],"x":nul}"#, "expected a value, found \"n\""),
        ("an array for a frame", "[]", "malformed frame at column 1: expected an object, found an array"),
    ]

    @Test("lines that are not frames are refused with the column and the reason", arguments: refused.map(\.0))
    func refusedLines(_ name: String) {
        let (_, line, reason) = Self.refused.first { $0.0 == name }!
        let error = #expect(throws: TrackError.self) { try Self.read(Array(line.utf8)) }
        #expect(error?.line == 2 && error?.reason.contains(reason) == true, "\(error?.description ?? "")")
    }

    @Test("a track in a slice of a larger Data reads as one on its own")
    func slice() throws {
        let track = Self.header + "\n" + #"{"t_ms":1,"poses":[]}"# + "\r\n\n" + #"{"t_ms":2,"poses":[]}"#
        let slice = Data(("{}\n" + track + "\n{}").utf8).dropFirst(3).dropLast(3)
        #expect(try LandmarkTrack(contentsOf: slice, name: "t.jsonl") == LandmarkTrack(contentsOf: Data(track.utf8), name: "t.jsonl"))
        #expect(try LandmarkTrack(contentsOf: slice, name: "t.jsonl").frames.map(\.timestampMilliseconds) == [1, 2])
    }

    @Test("strings that are not UTF-8 are refused")
    func notUTF8() {
        let line = Array(#"{"t_ms":1,"poses":[],"x"#.utf8) + [0xC3, 0x28] + Array(#"":1}"#.utf8)
        let error = #expect(throws: TrackError.self) { try Self.read(line) }
        #expect(error?.reason == "not a JSON object (frame line) at column 22: a string that is not UTF-8")
    }
}

/// SplitMix64: the same random lines on every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random frame lines of the shapes contracts §2 allows, in any JSON layout: keys
/// in any order, whitespace anywhere, extra keys with nested values, `"hands"`
/// absent or null, keys given twice, and numbers in every notation.
struct RandomFrameLines {
    var random: SeededGenerator

    init(seed: UInt64) {
        random = SeededGenerator(state: seed)
    }

    /// A frame line; with `layout` false, without whitespace, extra keys or escapes.
    mutating func line(maximumPoses: Int = 3, layout: Bool = true) -> String {
        self.layout = layout
        var members = [("t_ms", milliseconds()), ("poses", array((0..<int(0...maximumPoses)).map { _ in pose() }))]
        switch int(0...3) {
        case 0: break
        case 1: members.append(("hands", "null"))
        default: members.append(("hands", array((0..<int(0...2)).map { _ in hand() })))
        }
        return space() + object(members, extraKeys: ["t_m", "t_ms ", "T_ms", "pose", "posess", "hand", "handsx"]) + space()
    }

    private var layout = true

    private mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    private mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }

    private mutating func pose() -> String {
        object([("landmarks", rows(33)), ("world", rows(33))], extraKeys: ["landmark", "World", "visibility"])
    }

    private mutating func hand() -> String {
        let handedness = ["\"Left\"", "\"Right\"", #""L\u0065ft""#, #""Rig\/ht \ud83d\ude00""#, "\"Gauche é\"", #""\"\\\n""#]
        return object(
            [("handedness", layout ? handedness[int(0...5)] : "\"Left\""), ("score", number()),
             ("landmarks", rows(21)), ("world", rows(21))],
            extraKeys: ["Handedness", "scores", "landmarks_", "worlds"])
    }

    private mutating func rows(_ count: Int) -> String {
        array((0..<count).map { _ in array((0..<(chance(50) ? 3 : 5)).map { _ in number() }) })
    }

    /// An object of `members` in random order, with extra members and repeated keys when `layout` is on.
    private mutating func object(_ members: [(String, String)], extraKeys: [String]) -> String {
        var members = members
        if layout {
            for _ in 0..<int(0...2) {
                members.append((chance(50) ? extraKeys[int(0...extraKeys.count - 1)] : textContent(), junk(depth: 3)))
            }
            members.shuffle(using: &random)
            if chance(10), let repeated = members.randomElement(using: &random) { members.append((repeated.0, junk(depth: 1))) }
        }
        let written = members.map { name, value in key(name) + space() + ":" + space() + value }
        return "{" + space() + written.joined(separator: space() + "," + space()) + space() + "}"
    }

    private mutating func array(_ elements: [String]) -> String {
        "[" + space() + elements.joined(separator: space() + "," + space()) + space() + "]"
    }

    /// A key, with an escape now and then.
    private mutating func key(_ name: String) -> String {
        guard layout, chance(10), let scalar = name.unicodeScalars.first, scalar.properties.isAlphabetic || scalar == "_"
        else { return "\"\(name)\"" }
        return "\"\\u\(String(format: "%04x", scalar.value))\(name.dropFirst())\""
    }

    private mutating func space() -> String {
        guard layout, chance(30) else { return "" }
        return String((0..<int(1...3)).map { _ in [" ", "\t", "\r"][int(0...2)] })
    }

    private mutating func milliseconds() -> String {
        let value = int(0...100_000)
        guard layout else { return "\(value)" }
        return ["\(value)", "\(value).0", "\(value)e0", "\(value)0E-1", "\(value).000e+0", "\(value).5"][chance(80) ? 0 : int(1...5)]
    }

    /// A number, in one of many notations of a random `Float`, or of a number between two of them.
    private mutating func number() -> String {
        let value: Float = switch int(0...4) {
        case 0: Float.random(in: -1...1, using: &random)
        case 1: Float.random(in: -2000...2000, using: &random)
        case 2: Float(int(-100...100))
        case 3: [0, -0.0, 1, -1][int(0...3)]
        default: Float(bitPattern: UInt32.random(in: 0...UInt32.max, using: &random))
        }
        guard value.isFinite else { return "0" }
        guard layout else { return value.description }
        let between = (Double(value) + Double(value.nextUp)) / 2
        return switch int(0...7) {
        case 0, 1: value.description
        case 2: Double(value).description
        case 3: (value.isNormal && value.nextUp.isFinite ? between : Double(value)).description
        case 4: String(format: chance(50) ? "%.9e" : "%.12E", Double(value))
        case 5: String(format: "%.20f", Double(value))
        case 6: digitsAndExponent(value)
        default:
            value == 0 && value.sign == .minus ? "-0"
                : value == value.rounded() && value.magnitude < 1e9 ? String(Int(value)) : value.description
        }
    }

    /// `value` written as its shortest digits and an exponent, without a point: `5e-1`, `12345E+2`.
    private mutating func digitsAndExponent(_ value: Float) -> String {
        let parts = value.description.split(separator: "e")
        let mantissa = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        let fraction = mantissa.count > 1 ? mantissa[1] : ""
        let digits = (mantissa[0].drop { $0 == "-" } + fraction).drop { $0 == "0" }
        let exponent = (parts.count > 1 ? Int(parts[1])! : 0) - fraction.count
        return (value.sign == .minus ? "-" : "") + (digits.isEmpty ? "0" : String(digits)) + (chance(50) ? "e" : "E")
            + (exponent >= 0 && chance(50) ? "+" : "") + String(exponent)
    }

    /// A string of letters, escapes and characters beyond ASCII.
    private mutating func text() -> String { "\"" + textContent() + "\"" }

    /// The inside of `text()`.
    private mutating func textContent() -> String {
        let pieces = ["a", "Z", "_", " ", "é", "😀", #"\""#, #"\\"#, #"\/"#, #"\b"#, #"\n"#, #"\t"#, #"\u00e9"#, #"\uD83D\uDE00"#]
        return (0..<int(1...8)).map { _ in pieces[int(0...pieces.count - 1)] }.joined()
    }

    /// A random JSON value, `depth` levels deep at most.
    private mutating func junk(depth: Int) -> String {
        switch int(0...(depth > 0 ? 6 : 4)) {
        case 0: number()
        case 1: ["1e999", "-0.0E-0", "123456789012345678901234567890", "-1.5e+300"][int(0...3)]
        case 2: text()
        case 3: ["true", "false", "null"][int(0...2)]
        case 4: "[]"
        case 5: array((0..<int(1...3)).map { _ in junk(depth: depth - 1) })
        default: object((0..<int(1...3)).map { _ in (textContent(), junk(depth: depth - 1)) }, extraKeys: ["x"])
        }
    }
}
