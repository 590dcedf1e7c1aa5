import Foundation

/// A seeded source of draws: xoshiro256** with its state filled from the seed
/// through MurmurHash3's 64-bit finaliser. Every part of a session (body, plan,
/// camera, detector) draws from its own stream of the session seed, so that
/// changing how one part draws leaves the others as they were.
struct SimRandom: RandomNumberGenerator, Sendable {
    private var a: UInt64, b: UInt64, c: UInt64, d: UInt64

    init(seed: UInt64, stream: UInt64 = 0) {
        func scramble(_ value: UInt64) -> UInt64 {
            var h = value
            h ^= h >> 33
            h &*= 0xFF51_AFD7_ED55_8CCD
            h ^= h >> 33
            h &*= 0xC4CE_B9FE_1A85_EC53
            return h ^ (h >> 33)
        }
        let base = scramble(seed ^ scramble(stream &+ 0x5851_F42D_4C95_7F2D))
        a = scramble(base &+ 0x1000_0000_0000_0001)
        b = scramble(base &+ 0x2000_0000_0000_0003)
        c = scramble(base &+ 0x3000_0000_0000_0007)
        d = scramble(base &+ 0x4000_0000_0000_000F)
    }

    mutating func next() -> UInt64 {
        let result = ((b &* 5) << 7 | (b &* 5) >> 57) &* 9
        let t = b << 17
        c ^= a
        d ^= b
        b ^= c
        a ^= d
        c ^= t
        d = d << 45 | d >> 19
        return result
    }

    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(Int(next() >> 11)) * 0x1.0p-53 }

    mutating func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * unit() }

    /// Uniform on a log scale between two positive values.
    mutating func logUniform(_ low: Double, _ high: Double) -> Double {
        low * pow(high / low, unit())
    }

    mutating func int(_ low: Int, _ high: Int) -> Int { low + Int(next() % UInt64(high - low + 1)) }

    mutating func chance(_ probability: Double) -> Bool { unit() < probability }

    /// +1 or −1, evenly.
    mutating func sign() -> Double { next() & 1 == 0 ? 1 : -1 }

    /// A standard normal draw (Box–Muller, one of the pair).
    mutating func normal() -> Double {
        let u = max(unit(), 1e-300), v = unit()
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }

    /// A zero-mean draw of unit variance, uniform: cheap innovations for noise processes.
    mutating func flat() -> Double { (unit() * 2 - 1) * 1.732_050_8 }

    /// Four zero-mean draws of unit variance, uniform with 16-bit resolution, from one step of the generator.
    mutating func flat4() -> (Double, Double, Double, Double) {
        // Through Int: Double's conversion from Int is concrete, from UInt64 generic (and slow in debug builds).
        let bits = Int(truncatingIfNeeded: next()), scale = 2 * 1.732_050_8 / 65535
        return (Double(bits & 0xFFFF) * scale - 1.732_050_8, Double((bits >> 16) & 0xFFFF) * scale - 1.732_050_8,
                Double((bits >> 32) & 0xFFFF) * scale - 1.732_050_8, Double((bits >> 48) & 0xFFFF) * scale - 1.732_050_8)
    }

    mutating func pick<T>(_ items: [T]) -> T { items[int(0, items.count - 1)] }

    /// One of the items, with probability proportional to its weight.
    mutating func weighted<T>(_ items: [(T, Double)]) -> T {
        var left = unit() * items.reduce(0) { $0 + $1.1 }
        for (item, weight) in items {
            left -= weight
            if left < 0 { return item }
        }
        return items[items.count - 1].0
    }

    /// Draws a Poisson count (small means only).
    mutating func poisson(_ mean: Double) -> Int {
        var count = 0, product = unit()
        let limit = exp(-mean)
        while product > limit {
            count += 1
            product *= unit()
        }
        return count
    }
}
