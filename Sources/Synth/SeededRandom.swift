/// SplitMix64: a small, fast generator whose whole output is fixed by its seed, so a render is the same on
/// every machine and every run. Used once per render to build the noise loops, never per sample.
struct SeededRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform value in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// A uniform value in [−1, 1).
    mutating func signed() -> Double { unit() * 2 - 1 }

    /// An independent generator for one use (water, rain), so adding a voice never shifts another's noise.
    static func stream(seed: UInt64, purpose: UInt64) -> SeededRandom {
        var mixer = SeededRandom(seed: seed ^ (purpose &* 0xD1B5_4A32_D192_ED03))
        return SeededRandom(seed: mixer.next())
    }
}
