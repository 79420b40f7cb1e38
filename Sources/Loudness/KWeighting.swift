import NagiMath

/// The K-weighting filter of ITU-R BS.1770-4 at one sample rate (libebur128's coefficients: its shelf and
/// high-pass combined into one fourth-order section), and the loops that run it over interleaved frames.
///
/// A channel's filter state is eight Doubles: its last four inputs, then its last four outputs.
public struct KWeighting: Sendable {
    /// Channels of the frames it weights (every channel weighs 1: nagi writes mono and stereo).
    public let channelCount: Int
    /// Frames per 100 ms step, as libebur128 rounds it.
    public let stepFrames: Int
    /// Frames after which the filter's response to any state it starts from (its input silent) has fallen
    /// below 10⁻²⁰ of that state: from there on, a run started from rest gives the same outputs as one started
    /// from the true state, to far below a Double's rounding (13 159 frames at 48 kHz: the 38 Hz
    /// high-pass's double pole decays slowest).
    public let settleFrames: Int
    /// b0…b4.
    private let b: (Double, Double, Double, Double, Double)
    /// a1…a4.
    private let a: (Double, Double, Double, Double)

    /// The filter for frames of `channelCount` channels at `sampleRate`.
    public init(channelCount: Int, sampleRate: Int) {
        self.channelCount = channelCount
        let rate = Double(sampleRate)
        var k = Self.tan(Double.pi * 1681.974450955533 / rate)
        let vh = pow(10, 3.999843853973347 / 20)
        let vb = pow(vh, 0.4996667741545416)
        var q = 0.7071752369554196
        let a0 = 1 + k / q + k * k
        let pb = [(vh + vb * k / q + k * k) / a0, 2 * (k * k - vh) / a0, (vh - vb * k / q + k * k) / a0]
        let pa = [1, 2 * (k * k - 1) / a0, (1 - k / q + k * k) / a0]
        k = Self.tan(Double.pi * 38.13547087602444 / rate)
        q = 0.5003270373238773
        let rb = [1.0, -2.0, 1.0]
        let ra = [1, 2 * (k * k - 1) / (1 + k / q + k * k), (1 - k / q + k * k) / (1 + k / q + k * k)]
        var bb = [Double](repeating: 0, count: 5)
        var aa = [Double](repeating: 0, count: 5)
        for i in 0..<3 {
            for j in 0..<3 {
                bb[i + j] += pb[i] * rb[j]
                aa[i + j] += pa[i] * ra[j]
            }
        }
        b = (bb[0], bb[1], bb[2], bb[3], bb[4])
        a = (aa[1], aa[2], aa[3], aa[4])
        stepFrames = (sampleRate + 5) / 10
        settleFrames = Self.settleFrames(a: a, b: b)
    }

    /// tan(x) from the sine and cosine.
    private static func tan(_ x: Double) -> Double { sin(x) / cos(x) }

    /// The frames until the silent-input response to every unit state (one of the eight state values 1, the
    /// rest 0) has summed below 10⁻²⁰ for 1 024 frames running (the poles lie inside the unit circle, so it
    /// does not grow back).
    ///
    /// Every meter builds a weighting (a bed's measurement builds sixteen), so the eight states live in one
    /// buffer updated in place: a fresh array per state and frame cost 3.2 ms a weighting at 48 kHz (now 0.27 ms).
    private static func settleFrames(a: (Double, Double, Double, Double), b: (Double, Double, Double, Double, Double)) -> Int {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 64) { states in
            states.initialize(repeating: 0)
            for index in 0..<8 { states[index * 8 + index] = 1 }
            var quietRun = 0
            var frame = 0
            while quietRun < 1024 && frame < 1 << 22 {
                var largest = 0.0
                for index in 0..<8 {
                    let s = UnsafeMutableBufferPointer(rebasing: states[(index * 8)..<(index * 8 + 8)])
                    let y = b.1 * s[0] + b.2 * s[1] + b.3 * s[2] + b.4 * s[3] - a.0 * s[4] - a.1 * s[5] - a.2 * s[6] - a.3 * s[7]
                    (s[0], s[1], s[2], s[3]) = (0, s[0], s[1], s[2])
                    (s[4], s[5], s[6], s[7]) = (y, s[4], s[5], s[6])
                    largest += abs(y)
                }
                quietRun = largest < 1e-20 ? quietRun + 1 : 0
                frame += 1
            }
            return frame
        }
    }

    /// Weights `frameCount` interleaved frames from `samples` through the filters whose states are `state`
    /// (eight Doubles a channel, updated), adding each channel's sum of squared outputs to `sums[channel]`.
    public func run(_ samples: UnsafePointer<Float>, frameCount: Int, state: UnsafeMutablePointer<Double>, sums: UnsafeMutablePointer<Double>) {
        if channelCount == 2 {
            let (left, right) = runStereo(samples, frameCount: frameCount, state: state, sums: Pair())
            sums[0] += left
            sums[1] += right
            return
        }
        for channel in 0..<channelCount {
            sums[channel] += run(samples + channel, stride: channelCount, frameCount: frameCount, state: state + channel * 8)
        }
    }

    /// Weights `frameCount` interleaved stereo frames from `samples` through the filters whose states are `state`
    /// (eight Doubles a channel, updated), continuing the running sums of squared outputs in `sums` (updated):
    /// unlike `run(_:frameCount:state:sums:)`, which sums a run apart and then adds it, how the frames are cut
    /// into runs never changes the sums' rounding (`SegmentPairWeighting` runs it in chunks).
    func runStereo(_ samples: UnsafePointer<Float>, frameCount: Int, state: UnsafeMutablePointer<Double>, runningSums sums: UnsafeMutablePointer<Double>) {
        (sums[0], sums[1]) = runStereo(samples, frameCount: frameCount, state: state, sums: Pair(sums[0], sums[1]))
    }

    /// b0…b4 then a1…a4 (the C kernel's order).
    var coefficients: [Double] { [b.0, b.1, b.2, b.3, b.4, a.0, a.1, a.2, a.3] }

    /// One channel's `frameCount` samples `stride` apart; returns their sum of squared outputs.
    ///
    /// The feedback terms come last, oldest first: the newest output's term is then the only one left on the
    /// loop's critical path, so a sample waits for one multiply and one subtraction instead of a chain of nine.
    private func run(_ samples: UnsafePointer<Float>, stride: Int, frameCount: Int, state: UnsafeMutablePointer<Double>) -> Double {
        let (b0, b1, b2, b3, b4) = b
        let (a1, a2, a3, a4) = a
        var (x1, x2, x3, x4) = (state[0], state[1], state[2], state[3])
        var (y1, y2, y3, y4) = (state[4], state[5], state[6], state[7])
        var sum = 0.0
        var at = samples
        for _ in 0..<frameCount {
            let x = Double(at.pointee)
            let y = (((b0 * x + b1 * x1 + b2 * x2 + b3 * x3 + b4 * x4 - a4 * y4) - a3 * y3) - a2 * y2) - a1 * y1
            (x4, x3, x2, x1) = (x3, x2, x1, x)
            (y4, y3, y2, y1) = (y3, y2, y1, y)
            sum += y * y
            at += stride
        }
        (state[0], state[1], state[2], state[3]) = (x1, x2, x3, x4)
        (state[4], state[5], state[6], state[7]) = (y1, y2, y3, y4)
        return sum
    }

    /// Both channels of interleaved stereo in one loop, as the two lanes of `SIMD2` values: each lane does the
    /// same operations in the same order as `run(_:stride:frameCount:state:)`, so the figures are the same to the
    /// bit, in half the instructions. Unrolled by four frames so the history rotates through names instead of
    /// moves, and written with every value named (an earlier `SIMD2` form kept tuples and was spilled to the
    /// stack; the scalar pair the compiler then half-vectorised was a third of a file render's CPU).
    /// Returns the two sums of squared outputs, continued from `start`.
    private func runStereo(_ samples: UnsafePointer<Float>, frameCount: Int, state: UnsafeMutablePointer<Double>, sums start: Pair) -> (Double, Double) {
        let c = Coefficients(b: b, a: a)
        let left = state, right = state + 8
        var x1 = Pair(left[0], right[0]), x2 = Pair(left[1], right[1]), x3 = Pair(left[2], right[2]), x4 = Pair(left[3], right[3])
        var y1 = Pair(left[4], right[4]), y2 = Pair(left[5], right[5]), y3 = Pair(left[6], right[6]), y4 = Pair(left[7], right[7])
        var sum = start
        var at = samples
        var done = 0
        while done + 4 <= frameCount {
            let (xa, ya) = Self.step(c, at, x1, x2, x3, x4, y1, y2, y3, y4, sum: &sum)
            let (xb, yb) = Self.step(c, at + 2, xa, x1, x2, x3, ya, y1, y2, y3, sum: &sum)
            let (xc, yc) = Self.step(c, at + 4, xb, xa, x1, x2, yb, ya, y1, y2, sum: &sum)
            let (xd, yd) = Self.step(c, at + 6, xc, xb, xa, x1, yc, yb, ya, y1, sum: &sum)
            (x4, x3, x2, x1) = (xa, xb, xc, xd)
            (y4, y3, y2, y1) = (ya, yb, yc, yd)
            at += 8
            done += 4
        }
        while done < frameCount {
            let (x, y) = Self.step(c, at, x1, x2, x3, x4, y1, y2, y3, y4, sum: &sum)
            (x4, x3, x2, x1) = (x3, x2, x1, x)
            (y4, y3, y2, y1) = (y3, y2, y1, y)
            at += 2
            done += 1
        }
        (left[0], left[1], left[2], left[3]) = (x1.x, x2.x, x3.x, x4.x)
        (left[4], left[5], left[6], left[7]) = (y1.x, y2.x, y3.x, y4.x)
        (right[0], right[1], right[2], right[3]) = (x1.y, x2.y, x3.y, x4.y)
        (right[4], right[5], right[6], right[7]) = (y1.y, y2.y, y3.y, y4.y)
        return (sum.x, sum.y)
    }

    /// A left and a right value.
    private typealias Pair = SIMD2<Double>

    /// The filter's coefficients, each in both lanes.
    private struct Coefficients {
        var b0, b1, b2, b3, b4, a1, a2, a3, a4: Pair

        init(b: (Double, Double, Double, Double, Double), a: (Double, Double, Double, Double)) {
            (b0, b1, b2, b3, b4) = (Pair(repeating: b.0), Pair(repeating: b.1), Pair(repeating: b.2), Pair(repeating: b.3), Pair(repeating: b.4))
            (a1, a2, a3, a4) = (Pair(repeating: a.0), Pair(repeating: a.1), Pair(repeating: a.2), Pair(repeating: a.3))
        }
    }

    /// One stereo frame (the two samples at `frame`) through the filter, its squared output added to `sum`: the
    /// frame's input and output, which become the history's newest.
    @inline(__always)
    private static func step(
        _ c: Coefficients, _ frame: UnsafePointer<Float>, _ x1: Pair, _ x2: Pair, _ x3: Pair, _ x4: Pair, _ y1: Pair, _ y2: Pair, _ y3: Pair, _ y4: Pair,
        sum: inout Pair
    ) -> (x: Pair, y: Pair) {
        let x = Pair(Double(frame[0]), Double(frame[1]))
        let y = output(c, x, x1, x2, x3, x4, y1, y2, y3, y4)
        sum += y * y
        return (x, y)
    }

    /// One output from the input `x`, the last four inputs and the last four outputs (newest first), in the scalar
    /// loop's order of operations.
    @inline(__always)
    private static func output(_ c: Coefficients, _ x: Pair, _ x1: Pair, _ x2: Pair, _ x3: Pair, _ x4: Pair, _ y1: Pair, _ y2: Pair, _ y3: Pair, _ y4: Pair) -> Pair {
        var sum = c.b0 * x
        sum = sum + c.b1 * x1
        sum = sum + c.b2 * x2
        sum = sum + c.b3 * x3
        sum = sum + c.b4 * x4
        sum = sum - c.a4 * y4
        sum = sum - c.a3 * y3
        sum = sum - c.a2 * y2
        return sum - c.a1 * y1
    }
}
