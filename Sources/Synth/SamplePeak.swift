/// The largest sample magnitude of a run of samples.
public enum SamplePeak {
    /// The largest magnitude among `count` samples. Compares the magnitudes' bit patterns as integers (the
    /// same order for non-negative floats), which vectorises where a float max reduction (Float's `max`, SIMD's
    /// `pointwiseMax`) did not, at ten times the cost.
    public static func largestMagnitude(of samples: UnsafePointer<Float>, count: Int) -> Float {
        var largest: Int32 = 0
        for index in 0..<count {
            let bits = Int32(bitPattern: samples[index].bitPattern & 0x7FFF_FFFF)
            largest = bits > largest ? bits : largest
        }
        return Float(bitPattern: UInt32(bitPattern: largest))
    }

    /// The largest magnitude in `samples` (0 when empty).
    public static func largestMagnitude(of samples: UnsafeBufferPointer<Float>) -> Float {
        guard let base = samples.baseAddress else { return 0 }
        return largestMagnitude(of: base, count: samples.count)
    }
}
