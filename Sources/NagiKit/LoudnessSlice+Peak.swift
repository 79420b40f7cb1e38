import Loudness
import Synth

extension LoudnessSlice {
    /// The largest sample magnitude of `samples`, the frames this slice last measured: what the AVX kernel found
    /// as it weighted them (by `SamplePeak`'s rule), else `SamplePeak`'s own pass.
    func largestMagnitude(of samples: UnsafeBufferPointer<Float>) -> Float {
        largestMagnitude ?? SamplePeak.largestMagnitude(of: samples)
    }
}
