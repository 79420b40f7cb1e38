import NagiMath

/// The integrated loudness of a stream (ITU-R BS.1770-4 / EBU R128: K-weighting, 400 ms blocks every 100 ms,
/// the −70 LUFS absolute and −10 LU relative gates), computed as libebur128 computes it but in a tight loop of
/// its own: the gain tags meter every file nagi writes, and libebur128's per-sample loop (its interleaving,
/// channel map and mode checks) cost 0.65 s of CPU per 10 minutes of stereo, twice the synthesis; this one
/// costs about a fifth of that. The same filter coefficients (libebur128's, from the sample rate) and the same
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
    /// Every block's mean square, in order.
    private var blockEnergies: [Double] = []

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
            var energy = 0.0
            history.withUnsafeMutableBufferPointer { history in
                guard let states = history.baseAddress else { return }
                for channel in 0..<channels {
                    let state = states + channel * 8
                    var (x1, x2, x3, x4) = (state[0], state[1], state[2], state[3])
                    var (y1, y2, y3, y4) = (state[4], state[5], state[6], state[7])
                    var sum = 0.0
                    var at = base + frame * channels + channel
                    for _ in 0..<run {
                        let x = Double(at.pointee)
                        let y = b.0 * x + b.1 * x1 + b.2 * x2 + b.3 * x3 + b.4 * x4 - a.0 * y1 - a.1 * y2 - a.2 * y3 - a.3 * y4
                        (x4, x3, x2, x1) = (x3, x2, x1, x)
                        (y4, y3, y2, y1) = (y3, y2, y1, y)
                        sum += y * y
                        at += channels
                    }
                    (state[0], state[1], state[2], state[3]) = (x1, x2, x3, x4)
                    (state[4], state[5], state[6], state[7]) = (y1, y2, y3, y4)
                    energy += sum
                }
            }
            stepEnergy += energy
            stepFilled += run
            frame += run
            if stepFilled == stepFrames { finishStep() }
        }
    }

    /// Ends a 100 ms step; from the fourth on, each ends a 400 ms block.
    private func finishStep() {
        lastSteps[stepCount % 4] = stepEnergy
        stepCount += 1
        stepEnergy = 0
        stepFilled = 0
        if stepCount >= 4 {
            blockEnergies.append((lastSteps[0] + lastSteps[1] + lastSteps[2] + lastSteps[3]) / Double(4 * stepFrames))
        }
    }

    /// The integrated loudness so far, LUFS (−∞ when no block passes the gates).
    public var integratedLoudness: Double {
        let absoluteGate = pow(10, (-70 + 0.691) / 10)
        let loud = blockEnergies.filter { $0 >= absoluteGate }
        guard !loud.isEmpty else { return -.infinity }
        let relativeGate = loud.reduce(0, +) / Double(loud.count) * pow(10, -1)
        let gated = loud.filter { $0 >= relativeGate }
        guard !gated.isEmpty else { return -.infinity }
        return -0.691 + 10 * log10(gated.reduce(0, +) / Double(gated.count))
    }
}
