/// SplitMix64: a small deterministic generator for property tests, so the same cases are made on every
/// run and a failing one can be reproduced from its seed.
public struct SeededGenerator: RandomNumberGenerator {
    /// The generator's whole state; the seed to start from.
    public var state: UInt64

    /// A generator that starts from `seed`.
    public init(state seed: UInt64) { state = seed }

    /// The next pseudo-random number.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
