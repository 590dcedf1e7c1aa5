import Foundation
@testable import Rules
import Testing

@Suite("One Euro filter")
struct OneEuroFilterTests {
    static let world = OneEuroParameters(minCutoff: 0.1, beta: 40, derivativeCutoff: 1)

    @Test("a constant stays put; the first value passes unchanged")
    func constant() {
        var filter = OneEuroFilter(Self.world)
        for frame in 0..<30 { #expect(filter.filter(0.42, at: frame * 33) == 0.42) }
    }

    @Test("follows MediaPipe's formula: alpha = 1 / (1 + 1 / (2π · cutoff · Δt))")
    func formula() {
        var filter = OneEuroFilter(OneEuroParameters(minCutoff: 1, beta: 0, derivativeCutoff: 1))
        _ = filter.filter(0, at: 0)
        let alpha = 1 / (1 + 1 / (2 * Double.pi * 1 * 0.1))
        #expect(abs(filter.filter(1, at: 100) - alpha) < 1e-12)
    }

    @Test("jitter at rest is damped; fast movement is followed with little lag")
    func adaptive() {
        var still = OneEuroFilter(Self.world), moving = OneEuroFilter(Self.world)
        var stillError = 0.0, lag = 0.0
        for frame in 0..<90 {
            let t = frame * 33
            let smoothed = still.filter(frame % 2 == 0 ? 0.01 : -0.01, at: t)
            if frame >= 10 { stillError = max(stillError, abs(smoothed)) }
            let target = Double(frame) * 0.05  // 1.5 m/s
            lag = target - moving.filter(target, at: t)
        }
        #expect(stillError < 0.008, "1 cm jitter at 30 frames/s damped to \(stillError) m")
        #expect(lag < 0.05, "lag behind a 1.5 m/s movement: \(lag) m")
    }

    @Test("value scaling makes the same motion slower in object sizes")
    func valueScale() {
        var scaled = OneEuroFilter(OneEuroParameters(minCutoff: 0.05, beta: 80, derivativeCutoff: 1))
        var unscaled = scaled
        _ = scaled.filter(0, at: 0, valueScale: 1.0 / 500)
        _ = unscaled.filter(0, at: 0)
        // In pixels: 10 px in 33 ms. Scaled by a 500 px object, that is slow, so smoothed harder.
        #expect(scaled.filter(10, at: 33, valueScale: 1.0 / 500) < unscaled.filter(10, at: 33))
    }

    @Test("one filter of several points smooths every coordinate as a filter of its own would, bit for bit")
    func channels() {
        var together = OneEuroFilter(Self.world, channels: 2)
        var apart = Array(repeating: OneEuroFilter(Self.world), count: 6)
        for frame in 0..<60 {
            let time = frame == 30 ? 29 * 33 : frame * 33  // a time repeated starts afresh
            together.advance(to: time)
            for channel in 0..<2 {
                let point = Point(sin(Double(frame + channel) / 4), Double(frame * channel) * 0.03, frame % 2 == 0 ? 0.01 : -0.01)
                let smoothed = together.filter(channel, point, valueScale: 0.5)
                for axis in 0..<3 {
                    #expect(smoothed[axis] == apart[channel * 3 + axis].filter(point[axis], at: time, valueScale: 0.5))
                }
            }
        }
    }
}

@Suite("Geometry")
struct GeometryTests {
    @Test("angles between vectors")
    func angles() {
        #expect(Geometry.angle(Point(1, 0, 0), Point(0, 1, 0)) == 90)
        #expect(abs(Geometry.angle(Point(1, 0, 0), Point(-1, 1e-9, 0))! - 180) < 1e-6)
        #expect(abs(Geometry.angle(Point(1, 1, 0), Point(1, 0, 0))! - 45) < 1e-9)
        #expect(Geometry.angle(.zero, Point(1, 0, 0)) == nil)
    }

    @Test("perpendicular components and the up direction (y down)")
    func perpendicular() {
        let across = Geometry.perpendicular(Point(1, -0.2, 0), to: Point(2, 0, 0))!
        #expect(abs(Geometry.dot(across, Geometry.up) - 0.2) < 1e-12, "a point 0.2 above a level line")
        #expect(Geometry.perpendicular(Point(1, 0, 0), to: .zero) == nil)
    }
}

@Suite("Sliding median")
struct SlidingMedianTests {
    @Test("follows a window sliding along a series, repeated values included, as the median of the window would")
    func slides() {
        // A deterministic series with repeats: 0…12 in a scrambled order, twice over.
        let series = (0..<200).map { Double(($0 * 7 + $0 / 13) % 13) }
        var window = SlidingMedian()
        #expect(window.median == nil)
        for end in series.indices {
            window.insert(series[end])
            let start = max(0, end - 9)
            if start > 0 { window.remove(series[start - 1]) }
            #expect(window.median == median(Array(series[start...end])), "window \(start)...\(end)")
        }
    }

    @Test("a value never added is not taken out")
    func removeAbsent() {
        var window = SlidingMedian()
        for value in [3.0, 1, 2] { window.insert(value) }
        window.remove(5)
        #expect(window.median == 2)
        window.remove(2)
        #expect(window.median == 2)
    }
}
