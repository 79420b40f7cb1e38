/// A control value moving linearly across one control block: `value + slope·n` at the block's n-th frame
/// (SuperCollider's CALCSLOPE). Every gain, increment and timbre share the kernel reads arrives as one.
struct Ramp {
    /// The value at the block's first frame.
    var value: Float
    /// The change per frame.
    var slope: Float

    /// Holds still at 0.
    static let zero = Ramp(value: 0, slope: 0)

    init(value: Float, slope: Float) {
        self.value = value
        self.slope = slope
    }

    /// From `start` at the block's first frame to `end` at the next block's first frame, `frameCount` later.
    init(from start: Double, to end: Double, frameCount: Int) {
        value = Float(start)
        slope = Float((end - start) / Double(frameCount))
    }

    /// The value `offset` frames into the block.
    @inline(__always)
    func at(_ offset: Float) -> Float { value + offset * slope }

    /// The largest magnitude over a block of `frameCount` frames (a linear ramp peaks at an end).
    func largestMagnitude(frameCount: Int) -> Float {
        max(abs(value), abs(value + Float(frameCount) * slope))
    }

    /// This ramp scaled by a ramp of factors, endpoint by endpoint (the product stays linear per block).
    func scaled(by factor: Ramp, frameCount: Int) -> Ramp {
        let frames = Float(frameCount)
        let start = value * factor.value
        let end = (value + frames * slope) * (factor.value + frames * factor.slope)
        return Ramp(value: start, slope: (end - start) / frames)
    }
}
