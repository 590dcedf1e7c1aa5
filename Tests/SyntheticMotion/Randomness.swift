/// A seeded random source (SplitMix64), so every synthetic set can be made again.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        Double.random(in: range, using: &self)
    }

    /// A normally distributed value (Box–Muller).
    public mutating func gaussian(_ sigma: Double) -> Double {
        let u = max(1e-12, uniform(0...1)), v = uniform(0...1)
        return sigma * (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }

    public mutating func chance(_ probability: Double) -> Bool { uniform(0...1) < probability }
}

#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
