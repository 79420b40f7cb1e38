import NagiMath

/// The integrated loudness of a stream (ITU-R BS.1770-4 / EBU R128: K-weighting, 400 ms blocks every 100 ms,
/// the −70 LUFS absolute and −10 LU relative gates), computed as libebur128 computes it but in a tight loop of
/// its own: the gain tags meter every file nagi writes, and libebur128's per-sample loop (its interleaving,
/// channel map and mode checks) cost 0.65 s of CPU per 10 minutes of stereo, twice the synthesis; this one
/// costs about a twentieth of that. The same filter coefficients (libebur128's, from the sample rate) and the same
/// block arithmetic: the figures agree with libebur128's to 0.01 LU (tested) and with ffmpeg's meter within its
/// 0.1 LU. Every channel weighs 1 (nagi writes mono and stereo). Fed in order; one owner.
public final class GatedLoudnessMeter {
    private let channelCount: Int
    /// The K-weighting filter (the shelf and the high-pass combined): b0…b4, a1…a4.
    private let b: (Double, Double, Double, Double, Double)
    private let a: (Double, Double, Double, Double)
    /// Per channel, the filter's last four inputs and outputs.
    private var history: [Double]
    /// Frames per 100 ms step, as libebur128 rounds it.
    private let stepFrames: Int
    /// The weighted sum of squares of the current step so far, and its frames.
    private var stepEnergy = 0.0
    private var stepFilled = 0
    /// The last four steps' sums (a block is four steps), and how many have been seen.
    private var lastSteps: [Double] = [0, 0, 0, 0]
    private var stepCount = 0
    /// Every block's mean square, in order, in single precision: a 3-hour file has 108 000 blocks (0.4 MB so,
    /// twice that in Double), and a relative error of 10⁻⁷ moves the loudness by under 10⁻⁶ LU.
    private var blockEnergies: [Float] = []

    /// A meter for interleaved frames of `channelCount` channels at `sampleRate`.
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
        history = Array(repeating: 0, count: channelCount * 8)
        stepFrames = (sampleRate + 5) / 10
    }

    /// tan(x) from the sine and cosine.
    private static func tan(_ x: Double) -> Double { sin(x) / cos(x) }

    /// Adds interleaved samples (a whole number of frames).
    public func add(_ samples: UnsafeBufferPointer<Float>) {
        guard let base = samples.baseAddress else { return }
        let channels = channelCount
        var frame = 0
        let frames = samples.count / channels
        while frame < frames {
            let run = min(frames - frame, stepFrames - stepFilled)
            let start = base + frame * channels
            let energy = history.withUnsafeMutableBufferPointer { history -> Double in
                guard let states = history.baseAddress else { return 0 }
                if channels == 2 { return filterStereo(start, frameCount: run, state: states) }
                var energy = 0.0
                for channel in 0..<channels {
                    energy += filter(start + channel, stride: channels, frameCount: run, state: states + channel * 8)
                }
                return energy
            }
            stepEnergy += energy
            stepFilled += run
            frame += run
            if stepFilled == stepFrames { finishStep() }
        }
    }

    /// K-weights `frameCount` samples `stride` apart from `samples` through the filter whose last four inputs
    /// and outputs are `state`, returning their sum of squares.
    ///
    /// The feedback terms come last, oldest first: the newest output's term is then the only one left on the
    /// loop's critical path, so a sample waits for one multiply and one subtraction instead of a chain of nine.
    private func filter(_ samples: UnsafePointer<Float>, stride: Int, frameCount: Int, state: UnsafeMutablePointer<Double>) -> Double {
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

    /// `filter` for both channels of interleaved stereo in one loop, their sums of squares added: two
    /// independent chains the processor overlaps: 0.09 s of CPU per 10 minutes of stereo, where the same in
    /// `SIMD2` lanes (spilled to the stack) took 0.17 s.
    private func filterStereo(_ samples: UnsafePointer<Float>, frameCount: Int, state: UnsafeMutablePointer<Double>) -> Double {
        let (b0, b1, b2, b3, b4) = b
        let (a1, a2, a3, a4) = a
        let left = state, right = state + 8
        var (l1, l2, l3, l4) = (left[0], left[1], left[2], left[3])
        var (m1, m2, m3, m4) = (left[4], left[5], left[6], left[7])
        var (r1, r2, r3, r4) = (right[0], right[1], right[2], right[3])
        var (s1, s2, s3, s4) = (right[4], right[5], right[6], right[7])
        var sumL = 0.0, sumR = 0.0
        var at = samples
        for _ in 0..<frameCount {
            let xl = Double(at[0]), xr = Double(at[1])
            let yl = (((b0 * xl + b1 * l1 + b2 * l2 + b3 * l3 + b4 * l4 - a4 * m4) - a3 * m3) - a2 * m2) - a1 * m1
            let yr = (((b0 * xr + b1 * r1 + b2 * r2 + b3 * r3 + b4 * r4 - a4 * s4) - a3 * s3) - a2 * s2) - a1 * s1
            (l4, l3, l2, l1) = (l3, l2, l1, xl)
            (m4, m3, m2, m1) = (m3, m2, m1, yl)
            (r4, r3, r2, r1) = (r3, r2, r1, xr)
            (s4, s3, s2, s1) = (s3, s2, s1, yr)
            sumL += yl * yl
            sumR += yr * yr
            at += 2
        }
        (left[0], left[1], left[2], left[3]) = (l1, l2, l3, l4)
        (left[4], left[5], left[6], left[7]) = (m1, m2, m3, m4)
        (right[0], right[1], right[2], right[3]) = (r1, r2, r3, r4)
        (right[4], right[5], right[6], right[7]) = (s1, s2, s3, s4)
        return sumL + sumR
    }

    /// Ends a 100 ms step; from the fourth on, each ends a 400 ms block.
    private func finishStep() {
        lastSteps[stepCount % 4] = stepEnergy
        stepCount += 1
        stepEnergy = 0
        stepFilled = 0
        if stepCount >= 4 {
            blockEnergies.append(Float((lastSteps[0] + lastSteps[1] + lastSteps[2] + lastSteps[3]) / Double(4 * stepFrames)))
        }
    }

    /// The integrated loudness so far, LUFS (−∞ when no block passes the gates).
    public var integratedLoudness: Double { Self.integratedLoudness(of: [self]) }

    /// The integrated loudness of consecutive stretches metered apart, LUFS: their gating blocks pooled, as
    /// `ebur128_loudness_global_multiple` pools its states (the blocks straddling a seam are missing; −∞ when no
    /// block passes the gates).
    public static func integratedLoudness(of meters: [GatedLoudnessMeter]) -> Double {
        let absoluteGate = pow(10, (-70 + 0.691) / 10)
        let loud = meters.flatMap { $0.blockEnergies.lazy.map(Double.init).filter { $0 >= absoluteGate } }
        guard !loud.isEmpty else { return -.infinity }
        let relativeGate = loud.reduce(0, +) / Double(loud.count) * pow(10, -1)
        let gated = loud.filter { $0 >= relativeGate }
        guard !gated.isEmpty else { return -.infinity }
        return -0.691 + 10 * log10(gated.reduce(0, +) / Double(gated.count))
    }
}
