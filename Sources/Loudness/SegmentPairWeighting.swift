import CNagiKWeighting

/// Two segments of interleaved stereo K-weighted in lockstep, each from its own state with its own running sums:
/// in four Double lanes of AVX where the machine has it (`nagi_kweighting_run_lanes`), else through
/// `KWeighting`'s two-lane Swift loop a segment at a time, to the same bits.
///
/// The filter's recurrence (an output waits for the previous one through a multiply and a subtraction) leaves
/// the two-lane loop waiting between frames; two independent segments fill the wider vector for about the
/// same time a frame (measured: a frame of both segments costs about 1.1 frames of the two-lane loop), so a
/// slice's K-weighting takes about 0.6 of the time (`LoudnessSlice`). The sums stay here between runs: a caller runs up
/// to wherever either segment ends a piece, reads and clears that segment's sums alone, and carries on, and
/// the sums round the same however the frames were cut into runs. Reused; one owner at a time.
public final class SegmentPairWeighting {
    /// The filter (stereo).
    public let weighting: KWeighting
    /// Whether the runs take the AVX kernel; otherwise the Swift loop.
    public let usesVectorLanes: Bool
    /// b0…b4, a1…a4.
    private let coefficients: UnsafeMutablePointer<Double>
    /// The kernel's lanes (`NAGI_KWEIGHTING_LANE_DOUBLES`: histories interleaved by lane, then the four sums);
    /// for the Swift loop, each segment's state as `KWeighting` keeps it (sixteen Doubles), then the four sums.
    private let lanes: UnsafeMutablePointer<Double>
    /// The largest sample magnitude's bit pattern the kernel has read.
    private let peakBits: UnsafeMutablePointer<UInt32>
    /// Doubles in `lanes`.
    private static let laneDoubles = Int(NAGI_KWEIGHTING_LANE_DOUBLES)
    /// Where the sums begin in `lanes` (first segment's left, right, then the second's), in both layouts.
    private static let sumsOffset = 32

    /// Whether this machine has the AVX kernel.
    public static let vectorLanesAvailable = nagi_kweighting_lanes_available() != 0

    /// A pair for stereo `weighting`, in AVX when `usesVectorLanes` and the machine has it; from rest.
    public init(weighting: KWeighting, usesVectorLanes: Bool = SegmentPairWeighting.vectorLanesAvailable) {
        precondition(weighting.channelCount == 2, "segment pairs are stereo")
        self.weighting = weighting
        self.usesVectorLanes = usesVectorLanes && Self.vectorLanesAvailable
        coefficients = .allocate(capacity: 9)
        let values = weighting.coefficients
        for index in 0..<9 { (coefficients + index).initialize(to: values[index]) }
        lanes = .allocate(capacity: Self.laneDoubles)
        lanes.initialize(repeating: 0, count: Self.laneDoubles)
        peakBits = .allocate(capacity: 1)
        peakBits.initialize(to: 0)
    }

    deinit {
        coefficients.deallocate()
        lanes.deallocate()
        peakBits.deallocate()
    }

    /// Both segments back at rest, their sums and the peak at zero.
    public func reset() {
        lanes.update(repeating: 0, count: Self.laneDoubles)
        peakBits.pointee = 0
    }

    /// Weights the next `frameCount` frames of each segment, from `first` and `second`.
    public func run(first: UnsafePointer<Float>, second: UnsafePointer<Float>, frameCount: Int) {
        guard frameCount > 0 else { return }
        if usesVectorLanes {
            nagi_kweighting_run_lanes(coefficients, first, second, frameCount, lanes, peakBits)
            return
        }
        let sums = lanes + Self.sumsOffset
        weighting.runStereo(first, frameCount: frameCount, state: lanes, runningSums: sums)
        weighting.runStereo(second, frameCount: frameCount, state: lanes + 16, runningSums: sums + 2)
    }

    /// Segment `segment`'s (0 or 1) left and right sums of squared outputs since it was last cleared.
    public func sums(ofSegment segment: Int) -> (left: Double, right: Double) {
        let sums = lanes + Self.sumsOffset + 2 * segment
        return (sums[0], sums[1])
    }

    /// Sets segment `segment`'s sums to zero, leaving its state and the other segment's as they are.
    public func clearSums(ofSegment segment: Int) {
        (lanes + Self.sumsOffset + 2 * segment).update(repeating: 0, count: 2)
    }

    /// Copies segment `segment`'s filter state to `state`, as `KWeighting` keeps it (eight Doubles a channel).
    public func copyState(ofSegment segment: Int, to state: UnsafeMutablePointer<Double>) {
        guard usesVectorLanes else {
            state.update(from: lanes + 16 * segment, count: 16)
            return
        }
        // Lane 2 × segment + channel of history h sits at 4h + lane.
        for channel in 0..<2 {
            for history in 0..<8 { state[channel * 8 + history] = lanes[4 * history + 2 * segment + channel] }
        }
    }

    /// The largest sample magnitude the kernel has read since the last reset (by `SamplePeak`'s rule: the
    /// largest bit pattern, NaN included), or nil when the Swift loop ran (it does not look).
    public var largestMagnitude: Float? { usesVectorLanes ? Float(bitPattern: peakBits.pointee) : nil }
}
