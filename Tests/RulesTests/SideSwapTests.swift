import Foundation
@testable import Rules
import Testing
import WorkoutSimulator

@Suite("Left/right swaps")
struct SideSwapTests {
    /// A side-view body at 30 fps whose left arm moves across the picture
    /// (a curl) while the right hangs still; pixels for 33 landmarks.
    static func frames(count: Int) -> [[Point]] {
        (0..<count).map { frame in
            var pixels = (0..<33).map { Point(300 + Double($0 % 5), 200 + Double($0) * 8, 0) }
            let lift = 60 * sin(Double(frame) / 10)
            pixels[13] = Point(330, 300, 0)
            pixels[15] = Point(360 + lift, 380 - 2 * lift, 0)
            pixels[14] = Point(280, 300, 0)
            pixels[16] = Point(280, 400, 0)
            return pixels
        }
    }

    static func exchanged(_ pixels: [Point], _ limbs: SideSwaps.Limbs) -> [Point] {
        pixels.indices.map { pixels[SideSwaps.mirrored($0, in: [limbs])] }
    }

    @Test("a few frames with the arms' sides exchanged are found, and only those")
    func shortSwap() {
        var pixels: [[Point]?] = Self.frames(count: 60)
        for frame in 20..<24 { pixels[frame] = Self.exchanged(pixels[frame]!, .arms) }
        let swaps = SideSwaps.find(times: (0..<60).map { $0 * 33 }, pixels: pixels, sizes: Array(repeating: 300, count: 60))
        #expect(swaps.indices.filter { swaps[$0].contains(.arms) } == Array(20..<24))
        let legsSwapped = swaps.contains { $0.contains(.legs) }
        #expect(!legsSwapped)
    }

    @Test("a swap longer than the limit, or one that never switches back, is left alone")
    func longSwap() {
        let times = (0..<60).map { $0 * 33 }
        var long: [[Point]?] = Self.frames(count: 60), lasting: [[Point]?] = Self.frames(count: 60)
        for frame in 10..<30 { long[frame] = Self.exchanged(long[frame]!, .arms) }
        for frame in 40..<60 { lasting[frame] = Self.exchanged(lasting[frame]!, .arms) }
        for pixels in [long, lasting] {
            let swaps = SideSwaps.find(times: times, pixels: pixels, sizes: Array(repeating: 300, count: 60))
            let none = swaps.allSatisfy { $0.isEmpty }
            #expect(none)
        }
    }

    @Test("switches with the pose lost between them are not paired")
    func broken() {
        var pixels: [[Point]?] = Self.frames(count: 60)
        for frame in 20..<24 { pixels[frame] = Self.exchanged(pixels[frame]!, .arms) }
        for frame in 15..<20 { pixels[frame] = nil }
        pixels[24] = nil
        let swaps = SideSwaps.find(times: (0..<60).map { $0 * 33 }, pixels: pixels, sizes: Array(repeating: 300, count: 60))
        let none = swaps.allSatisfy { $0.isEmpty }
        #expect(none)
    }

    @Test("a curl by the far arm alone, whose shoulder the detector hardly sees, counts on that arm through its swaps")
    func farArmAlone() throws {
        // A tuning seed: the left arm curls, filmed from its right side (its shoulder seen in ~10 % of
        // frames), with a five-frame swap of the arms mid-rep.
        let session = WorkoutSimulator.session("bicep_curl", seed: 49)
        let report = Scorer(rule: try RuleFixtures.book.rule(for: "bicep_curl")).score(session.track).report
        #expect(report.repCount == session.reps.count, "\(report.warnings)")
        for (rep, truth) in zip(report.reps, session.reps) {
            #expect((truth.startMs...truth.endMs).contains(rep.bottomMilliseconds), "rep \(rep.index)'s turn lies in the true rep")
        }
    }
}
