/// The output's safety net, memoryless so it cannot smear a cue into the frames before it: the identity up
/// to the knee, above it `knee + (ceiling − knee)·u/(1 + u)` with u = (|x| − knee)/(ceiling − knee), which
/// leaves the knee with slope 1 and never reaches the ceiling. Run only on blocks whose peak passes the knee.
struct PeakLimiter {
    /// Linear knee.
    let knee: Float
    /// Linear ceiling (≤ −1 dBFS).
    let ceiling: Float

    /// Limits `count` samples in place.
    func apply(to samples: UnsafeMutablePointer<Float>, count: Int) {
        let range = ceiling - knee
        for index in 0..<count {
            let value = samples[index]
            let excess = abs(value) - knee
            guard excess > 0 else { continue }
            let u = excess / range
            let limited = knee + range * (u / (1 + u))
            samples[index] = value < 0 ? -limited : limited
        }
    }

    /// The largest magnitude among `count` samples. Compares the magnitudes' bit patterns as integers (the
    /// same order for non-negative floats), which vectorises where a float max reduction would not.
    static func peak(of samples: UnsafePointer<Float>, count: Int) -> Float {
        var largest: Int32 = 0
        for index in 0..<count {
            let bits = Int32(bitPattern: samples[index].bitPattern & 0x7FFF_FFFF)
            largest = bits > largest ? bits : largest
        }
        return Float(bitPattern: UInt32(bitPattern: largest))
    }
}
