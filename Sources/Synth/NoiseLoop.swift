import NagiMath

/// Looping noise beds pre-rendered once per render from the seed ("pre-rendered once, then only scaled"):
/// the hot loop reads them contiguously and scales them, with no generator or recursive filter per sample.
/// Each loop is seamless (filtered circularly) and long enough that no repetition is heard; the right
/// channel's side signal reads the same loop half a loop away, which is independent noise.
struct NoiseLoop {
    /// Frames before the loop repeats.
    let length: Int
    /// The dark (or only) filtering, `length + padding` samples, RMS 1; the padding repeats the start so a
    /// block never wraps mid-read.
    let primary: FloatBuffer
    /// The bright filtering of the same noise (water only), crossfaded with `primary` to move the filter.
    let secondary: FloatBuffer?

    /// The water bed: one white noise through a dark and a bright two-stage low-pass, both normalised to RMS 1.
    static func water(_ water: Soundscape.Water, sampleRate: Int, seed: UInt64, padding: Int) -> NoiseLoop {
        let rate = Double(sampleRate)
        var random = SeededRandom.stream(seed: seed, purpose: 1)
        let length = loopLength(loopSeconds: water.loopSeconds, sampleRate: rate, padding: padding)
        let dark = FloatBuffer(count: length + padding)
        let bright = FloatBuffer(count: length + padding)
        // The noise is drawn into the bright table and filtered from there in place (each sample is read before
        // it is overwritten): a third loop's worth of fresh memory (1.1 MiB at 48 kHz) was faulted in, page by page,
        // on the thread compiling the plan.
        whiteNoise(into: bright.base, length: length, random: &random)
        lowPass(bright.base, length: length, into: dark.base, cutoffHz: water.darkCutoffHz, and: bright.base, cutoffHz: water.brightCutoffHz, sampleRate: rate)
        normaliseAndPad(dark.base, length: length, padding: padding)
        normaliseAndPad(bright.base, length: length, padding: padding)
        return NoiseLoop(length: length, primary: dark, secondary: bright)
    }

    /// The rain bed: band-limited noise plus sparse droplets (short decaying sines at random pitches),
    /// normalised to RMS 1.
    static func rain(_ rain: Soundscape.Rain, sampleRate: Int, seed: UInt64, padding: Int) -> NoiseLoop {
        let rate = Double(sampleRate)
        var random = SeededRandom.stream(seed: seed, purpose: 2)
        let length = loopLength(loopSeconds: rain.loopSeconds, sampleRate: rate, padding: padding)
        let bed = FloatBuffer(count: length + padding)
        let white = FloatBuffer(count: length)
        whiteNoise(into: white.base, length: length, random: &random)
        // High-pass as the input minus its one-pole low-pass, then the two-stage low-pass.
        let rumble = FloatBuffer(count: length)
        lowPass(white.base, length: length, into: rumble.base, cutoffHz: rain.lowCutoffHz, sampleRate: rate, stages: 1)
        for index in 0..<length { white.base[index] -= rumble.base[index] }
        lowPass(white.base, length: length, into: bed.base, cutoffHz: rain.highCutoffHz, sampleRate: rate)
        normalise(bed.base, length: length)
        addDroplets(rain, to: bed.base, length: length, sampleRate: rate, random: &random)
        normaliseAndPad(bed.base, length: length, padding: padding)
        return NoiseLoop(length: length, primary: bed, secondary: nil)
    }

    /// One-pole low-pass stages (1 or 2) run circularly over `length` samples: a warm-up over the loop's end
    /// first, so the filtered loop joins its own start without a seam.
    private static func lowPass(
        _ input: UnsafePointer<Float>, length: Int, into output: UnsafeMutablePointer<Float>, cutoffHz: Double, sampleRate: Double,
        stages: Int = 2
    ) {
        let filter = CircularLowPass(cutoffHz: cutoffHz, sampleRate: sampleRate, length: length)
        var first = 0.0
        var second = 0.0
        for index in filter.warmUp { filter.step(Double(input[index]), &first, &second) }
        for index in 0..<length {
            filter.step(Double(input[index]), &first, &second)
            output[index] = Float(stages > 1 ? second : first)
        }
    }

    /// Two two-stage low-passes of one input in one pass (their independent recurrences overlap). Either output
    /// may be the input: each sample is read before it is written.
    private static func lowPass(
        _ input: UnsafePointer<Float>, length: Int, into output: UnsafeMutablePointer<Float>, cutoffHz: Double,
        and otherOutput: UnsafeMutablePointer<Float>, cutoffHz otherCutoffHz: Double, sampleRate: Double
    ) {
        let filter = CircularLowPass(cutoffHz: cutoffHz, sampleRate: sampleRate, length: length)
        let other = CircularLowPass(cutoffHz: otherCutoffHz, sampleRate: sampleRate, length: length)
        var first = 0.0, second = 0.0, otherFirst = 0.0, otherSecond = 0.0
        for index in filter.warmUp { filter.step(Double(input[index]), &first, &second) }
        for index in other.warmUp { other.step(Double(input[index]), &otherFirst, &otherSecond) }
        for index in 0..<length {
            let sample = Double(input[index])
            filter.step(sample, &first, &second)
            other.step(sample, &otherFirst, &otherSecond)
            output[index] = Float(second)
            otherOutput[index] = Float(otherSecond)
        }
    }

    /// A one-pole low-pass coefficient and the warm-up range that makes its loop seamless.
    private struct CircularLowPass {
        let coefficient: Double
        /// The loop's last frames: after 40 time constants the start state is forgotten to e^−40.
        let warmUp: Range<Int>

        init(cutoffHz: Double, sampleRate: Double, length: Int) {
            coefficient = 1 - exp(-2 * Double.pi * min(cutoffHz, 0.45 * sampleRate) / sampleRate)
            warmUp = (length - min(length, Int((40 / coefficient).rounded(.up))))..<length
        }

        @inline(__always)
        func step(_ sample: Double, _ first: inout Double, _ second: inout Double) {
            first += coefficient * (sample - first)
            second += coefficient * (first - second)
        }
    }

    private static func addDroplets(_ rain: Soundscape.Rain, to bed: UnsafeMutablePointer<Float>, length: Int, sampleRate: Double, random: inout SeededRandom) {
        guard rain.dropsPerSecond > 0 else { return }
        let peak = pow(10, rain.dropGainDecibels / 20)
        let logLow = log(rain.dropLowHz)
        let logHigh = log(min(rain.dropHighHz, 0.45 * sampleRate))
        var time = 0.0
        while true {
            time += -log(1 - random.unit()) / rain.dropsPerSecond
            let start = Int(time * sampleRate)
            guard start < length else { break }
            let frequency = exp(logLow + (max(logLow, logHigh) - logLow) * random.unit())
            let amplitude = peak * (0.3 + 0.7 * random.unit())
            let decayFrames = rain.dropDecaySeconds * (0.5 + random.unit()) * sampleRate
            let span = min(length, Int(8 * decayFrames))
            // A decaying sine by rotation: no trig per sample.
            let factor = exp(-1 / decayFrames)
            let step = 2 * Double.pi * frequency / sampleRate
            let rotationReal = factor * cos(step)
            let rotationImaginary = factor * sin(step)
            var real = 0.0
            var imaginary = amplitude
            for offset in 0..<span {
                let index = (start + offset) % length
                bed[index] += Float(real)
                let nextReal = real * rotationReal - imaginary * rotationImaginary
                imaginary = real * rotationImaginary + imaginary * rotationReal
                real = nextReal
            }
        }
    }

    /// A loop's frames: `loopSeconds` long, and never shorter than `padding` (a block must fit in one pass of
    /// the loop).
    private static func loopLength(loopSeconds: Double, sampleRate: Double, padding: Int) -> Int {
        max(padding, Int((loopSeconds * sampleRate).rounded()))
    }

    /// One loop of uniform white noise in [−1, 1) into `samples`, two samples per 64 random bits, drawn from
    /// `random` (the seed's stream for the loop), which goes on for whatever else the loop draws.
    private static func whiteNoise(into samples: UnsafeMutablePointer<Float>, length: Int, random: inout SeededRandom) {
        var index = 0
        while index < length {
            let bits = random.next()
            samples[index] = Float(Int32(truncatingIfNeeded: bits)) * 0x1p-31
            if index + 1 < length { samples[index + 1] = Float(Int32(truncatingIfNeeded: bits >> 32)) * 0x1p-31 }
            index += 2
        }
    }

    private static func normalise(_ samples: UnsafeMutablePointer<Float>, length: Int) {
        // Four partial sums: independent chains instead of one long one.
        var sums = (0.0, 0.0, 0.0, 0.0)
        var index = 0
        while index + 4 <= length {
            sums.0 += Double(samples[index]) * Double(samples[index])
            sums.1 += Double(samples[index + 1]) * Double(samples[index + 1])
            sums.2 += Double(samples[index + 2]) * Double(samples[index + 2])
            sums.3 += Double(samples[index + 3]) * Double(samples[index + 3])
            index += 4
        }
        var energy = (sums.0 + sums.1) + (sums.2 + sums.3)
        while index < length {
            energy += Double(samples[index]) * Double(samples[index])
            index += 1
        }
        guard energy > 0 else { return }
        let scale = Float(1 / (energy / Double(length)).squareRoot())
        for index in 0..<length { samples[index] *= scale }
    }

    /// Normalises the loop's `length` samples to RMS 1, then repeats its start in the `padding` after it.
    private static func normaliseAndPad(_ samples: UnsafeMutablePointer<Float>, length: Int, padding: Int) {
        normalise(samples, length: length)
        for index in 0..<padding { samples[length + index] = samples[index % length] }
    }
}
