import NagiMath

/// The output stage's look-ahead true-peak limiter, with finite memory: every output sample is a function of
/// the input within a bounded window around it (`historyFrames` before, `delayFrames` after), so a renderer
/// that seeks pre-rolls that window and gives exactly the samples a render from frame 0 gives.
///
/// For each input frame n it estimates the true peak `tp[n]` (the largest magnitude of the sample and of the
/// signal between it and the next, band-limited interpolation at `oversampling` points per sample: 4 at 48 kHz and
/// more at lower rates, so the grid is at least 192 kHz as ffmpeg's meter reads it) and the gain
/// `r[n] = curve(tp)/tp` that brings it under the soft knee curve (identity to the knee, then
/// `knee + (ceiling − knee)·u/(1 + u)`, which never reaches the ceiling). The gain applied is r's minimum over
/// `[n − holdFrames, n + lookAheadFrames]`, smoothed by two box filters whose spans add up to the look-ahead,
/// so it starts falling before a peak, never rises above what any frame under the kernel needs (each box sum
/// covers frames whose windows all reach n), holds through a low note's cycle and recovers along an S-curve
/// of a few milliseconds. There is no recursion anywhere: the minimum is a monotonic queue, the boxes are
/// integer running sums of the gain quantised to 2⁻²⁴ (exact in any order, so a restarted run reaches the same
/// sums), and a block whose window holds nothing to limit is copied unchanged.
///
/// The output lags the input by `delayFrames` (whole blocks); the renderer synthesizes that far ahead, so the
/// output's frame 0 is still the schedule's frame 0. Not thread-safe: one per renderer.
final class TruePeakLimiter {
    /// Frames per block: the renderer's control block.
    let blockFrames: Int
    /// Interleaved channels per frame.
    let channelCount: Int
    /// Linear true-peak level where limiting begins.
    let knee: Float
    /// Linear true-peak level the output stays under.
    let ceiling: Float
    /// Frames by which an output block lags the input block fed with it (a multiple of `blockFrames`).
    let delayFrames: Int
    /// Input frames before an output frame that can change it: a seek pre-rolls at least this many (a multiple of
    /// `blockFrames`).
    let historyFrames: Int
    /// Input blocks `process` takes at once at most (the size of `chunkInput`).
    let chunkBlockCount: Int

    /// The first box's span (frames): the attack's first part.
    private let attackFrames: Int
    /// The second box's span (frames).
    private let smoothingFrames: Int
    /// Frames after a peak the gain stays down (a 20 Hz cycle), so it does not follow a low note's waveform.
    private let holdFrames: Int
    /// Frames of input after a frame its gain depends on: the two boxes' spans less one each.
    private let lookAheadFrames: Int
    /// Blocks of the look-ahead, rounded up.
    private let lookAheadBlocks: Int
    /// Blocks kept in front of each chunk: the oldest block an output or a peak estimate still reads.
    private let keptBlocks: Int

    /// The interpolation taps: `oversampling − 1` phases of `tapCount` each, for the points between a frame and
    /// the next (frames n − 5 … n + 6).
    private let taps: [Float]
    private let oversampling: Int
    private static let tapCount = SynthKernel.interpolationTapCount
    /// The taps' largest absolute sum over the phases: a block whose neighbourhood's sample peak times it stays
    /// under the knee needs no estimate.
    private let interpolationBound: Float

    /// The input frames, kept blocks then the chunk: the oldest block an output or a peak estimate still reads at
    /// index 0.
    private let input: FloatBuffer
    /// A block's worth of samples each: the largest magnitude found so far at each sample and between it and
    /// the next, and one phase's interpolated points.
    private let truePeakScratch: FloatBuffer
    private let interpolationScratch: FloatBuffer
    /// Each buffered block's sample peak, laid out as `input`.
    private let blockPeaks: FloatBuffer
    /// The gain each input frame needs, by absolute frame & `gainMask`.
    private let neededGains: FloatBuffer
    private let gainMask: Int
    /// Per block of `neededGains`, whether a gain in it is below 1: a block with nothing to limit is set to 1s
    /// only when the block that held its place last had some (filling every block was a quarter of this
    /// limiter's estimates in a guided render, most blocks having nothing to limit).
    private let gainBlockLowered: UnsafeMutableBufferPointer<Bool>
    /// The blocks whose needed gain falls below 1 somewhere and that outputs may still see, oldest first, from
    /// `RunState.limitedFirst` around the ring.
    private let limitedBlocks: UnsafeMutableBufferPointer<Int64>
    /// The sliding minimum's frames, by position & `queueMask`, values increasing from the front.
    private let minimumQueue: UnsafeMutableBufferPointer<Int64>
    private let queueMask: Int
    /// The last `attackFrames` quantised minima; the last `smoothingFrames` first-box sums.
    private let minima: UnsafeMutableBufferPointer<Int64>
    private let boxSums: UnsafeMutableBufferPointer<Int64>
    /// Whether `estimateGains` interpolates in the C kernel's AVX lanes (the same bits as Swift's loops, which
    /// machines without AVX take; tests switch it off to compare the two).
    var usesVectorInterpolation = SynthKernel.lanesAvailable
    /// Everything else that moves, in one value: `process` works on a local copy of it, as a class's stored
    /// variables are checked for exclusive access at every use (a runtime call each, several per block).
    private var run = RunState()

    /// The limiter's moving scalars.
    private struct RunState {
        /// The absolute index of the next input block.
        var nextInputBlock: Int64 = 0
        /// Where the oldest of `limitedBlocks` sits, and how many there are.
        var limitedFirst = 0
        var limitedCount = 0
        /// The sliding minimum queue's front and length.
        var queueFront = 0
        var queueCount = 0
        /// The next slot of `minima` and their sum; the next slot of `boxSums` and theirs.
        var minimaIndex = 0
        var minimaSum: Int64 = 0
        var boxSumsIndex = 0
        var boxSumsSum: Int64 = 0
        /// The smallest gain any frame has needed since the last reset (1: nothing limited).
        var smallestNeededGain: Float = 1
        /// Whether the smoothing state stands for a stretch with nothing to limit (all minima 1), so it is set up
        /// afresh when limiting starts.
        var idle = true
    }

    /// The smallest gain any frame has needed since the last reset (1: nothing limited).
    var smallestNeededGain: Float { run.smallestNeededGain }

    /// The quantisation of the gain in the running sums: 2²⁴ is a gain of 1.
    private static let unitGain: Int64 = 1 << 24

    /// A limiter for `channelCount` channels at `sampleRate` with its knee and ceiling as linear true peaks.
    init(knee: Float, ceiling: Float, sampleRate: Int, channelCount: Int, blockFrames: Int, chunkBlockCount: Int = 32) {
        precondition(knee > 0 && ceiling > knee, "the knee must sit under the ceiling")
        // The estimates scan a block in runs of `runFrames` and read a run's whole window: a block of another size
        // would be scanned past its end.
        precondition(blockFrames > 0 && blockFrames % Self.runFrames == 0, "a block is a whole number of \(Self.runFrames) frames")
        self.knee = knee
        self.ceiling = ceiling
        self.channelCount = channelCount
        self.blockFrames = blockFrames
        self.chunkBlockCount = chunkBlockCount
        (attackFrames, smoothingFrames, holdFrames) = Self.spans(sampleRate: sampleRate)
        lookAheadFrames = attackFrames + smoothingFrames - 2
        lookAheadBlocks = max(1, (lookAheadFrames + blockFrames - 1) / blockFrames)
        keptBlocks = lookAheadBlocks + 1
        // An input block's gains are estimated when the block after it arrives (its interpolation reads 6 frames on).
        delayFrames = (lookAheadBlocks + 1) * blockFrames
        historyFrames = Self.historyFrames(sampleRate: sampleRate, blockFrames: blockFrames)

        (taps, oversampling, interpolationBound) = Self.interpolation(sampleRate: sampleRate)

        input = FloatBuffer(count: (keptBlocks + chunkBlockCount) * blockFrames * channelCount)
        truePeakScratch = FloatBuffer(count: blockFrames * channelCount)
        interpolationScratch = FloatBuffer(count: blockFrames * channelCount)
        blockPeaks = FloatBuffer(count: keptBlocks + chunkBlockCount)
        let gainSpan = holdFrames + (lookAheadBlocks + 3) * blockFrames
        var gainCapacity = 1
        while gainCapacity < gainSpan { gainCapacity <<= 1 }
        neededGains = FloatBuffer(count: gainCapacity)
        gainMask = gainCapacity - 1
        gainBlockLowered = .allocate(capacity: max(1, gainCapacity / blockFrames))
        gainBlockLowered.initialize(repeating: false)
        limitedBlocks = Self.allocateZeroed(gainCapacity / blockFrames + 4)
        var queueCapacity = 1
        while queueCapacity < holdFrames + lookAheadFrames + 2 { queueCapacity <<= 1 }
        minimumQueue = Self.allocateZeroed(queueCapacity)
        queueMask = queueCapacity - 1
        minima = Self.allocateZeroed(attackFrames)
        boxSums = Self.allocateZeroed(smoothingFrames)
        reset(atFrame: 0)
    }

    deinit {
        gainBlockLowered.deallocate()
        limitedBlocks.deallocate()
        minimumQueue.deallocate()
        minima.deallocate()
        boxSums.deallocate()
    }

    private static func allocateZeroed(_ count: Int) -> UnsafeMutableBufferPointer<Int64> {
        let buffer = UnsafeMutableBufferPointer<Int64>.allocate(capacity: max(1, count))
        buffer.initialize(repeating: 0)
        return buffer
    }

    /// The interpolation at `sampleRate`: `oversampling − 1` phases of `tapCount` taps (frames n − 5 … n + 6 for
    /// the points between frame n and the next), the points per sample, and the taps' largest absolute sum.
    private static func interpolation(sampleRate: Int) -> (taps: [Float], oversampling: Int, bound: Float) {
        let oversampling = max(4, Int((192_000 / Double(sampleRate)).rounded(.up)))
        var taps: [Float] = []
        var bound: Float = 1
        for phase in 1..<oversampling {
            let fraction = Double(phase) / Double(oversampling)
            var phaseTaps: [Double] = []
            for k in -5...6 {
                let distance = fraction - Double(k)
                phaseTaps.append(Self.sinc(distance) * Self.window(distance))
            }
            // Each phase passes a constant unchanged.
            let sum = phaseTaps.reduce(0, +)
            let normalised = phaseTaps.map { Float($0 / sum) }
            bound = max(bound, normalised.reduce(0) { $0 + abs($1) })
            taps += normalised
        }
        return (taps, oversampling, bound)
    }

    /// The true peak of a mono table at `sampleRate` as the limiter estimates it (each sample and the points
    /// between it and the next, the table taken as silent around it): for sounds placed past the limiter, whose
    /// gain must keep their peaks between samples under the ceiling too. Once per table, never per frame.
    static func truePeak(of table: FloatBuffer, sampleRate: Int) -> Float {
        let (taps, oversampling, _) = interpolation(sampleRate: sampleRate)
        let samples = table.base
        let count = table.count
        var peak: Float = 0
        for index in 0..<count {
            peak = max(peak, abs(samples[index]))
            for phase in 0..<(oversampling - 1) {
                var sum: Float = 0
                for k in 0..<tapCount {
                    let at = index - 5 + k
                    if at >= 0 && at < count { sum += taps[phase * tapCount + k] * samples[at] }
                }
                peak = max(peak, abs(sum))
            }
        }
        return peak
    }

    /// The first box's, the second box's and the hold's spans at `sampleRate`, frames.
    private static func spans(sampleRate: Int) -> (attack: Int, smoothing: Int, hold: Int) {
        let rate = Double(sampleRate)
        return (max(48, Int((0.003 * rate).rounded())), max(32, Int((0.002 * rate).rounded())), Int((0.02 * rate).rounded()))
    }

    /// `historyFrames` of a limiter at `sampleRate` with blocks of `blockFrames`: the hold, the look-ahead and
    /// three blocks, rounded up to whole blocks.
    static func historyFrames(sampleRate: Int, blockFrames: Int) -> Int {
        let (attack, smoothing, hold) = spans(sampleRate: sampleRate)
        let history = hold + attack + smoothing - 2 + 3 * blockFrames
        return (history + blockFrames - 1) / blockFrames * blockFrames
    }

    /// Where the renderer writes the next input blocks (at most `chunkBlockCount`) before `process`.
    var chunkInput: UnsafeMutablePointer<Float> { input.base + keptBlocks * blockFrames * channelCount }

    /// Forgets everything: the input before `frame` (a block boundary) is taken as silence.
    func reset(atFrame frame: Int64) {
        precondition(frame % Int64(blockFrames) == 0, "the limiter restarts on a block boundary")
        var run = RunState()
        run.nextInputBlock = frame / Int64(blockFrames)
        self.run = run
        input.base.update(repeating: 0, count: keptBlocks * blockFrames * channelCount)
        blockPeaks.base.update(repeating: 0, count: blockPeaks.count)
        neededGains.base.update(repeating: 1, count: neededGains.count)
        gainBlockLowered.update(repeating: false)
    }

    /// Takes the `blockCount` input blocks written at `chunkInput` and writes the as many output blocks they
    /// complete, each `delayFrames` behind its input, to `output` (nil: computed and discarded, for a pre-roll).
    func process(blockCount: Int, output: UnsafeMutablePointer<Float>?) {
        precondition(blockCount <= chunkBlockCount, "at most one chunk at a time")
        let samplesPerBlock = blockFrames * channelCount
        var run = self.run
        defer { self.run = run }
        for chunkIndex in 0..<blockCount {
            let inputBlock = run.nextInputBlock
            let position = keptBlocks + chunkIndex
            blockPeaks.base[position] = SamplePeak.largestMagnitude(of: input.base + position * samplesPerBlock, count: samplesPerBlock)
            estimateGains(block: inputBlock - 1, position: position - 1, run: &run)
            let outputBlock = inputBlock - 1 - Int64(lookAheadBlocks)
            let outputPosition = position - 1 - lookAheadBlocks
            let destination = output.map { $0 + chunkIndex * samplesPerBlock }
            limit(block: outputBlock, from: input.base + outputPosition * samplesPerBlock, into: destination, run: &run)
            run.nextInputBlock += 1
        }
        // The last kept blocks to the front for the next chunk.
        let moved = keptBlocks * samplesPerBlock
        input.base.update(from: input.base + blockCount * samplesPerBlock, count: moved)
        for index in 0..<keptBlocks { blockPeaks.base[index] = blockPeaks.base[index + blockCount] }
    }

    /// Fills the needed gain of every frame of `block` (at buffer `position`, with the blocks either side buffered).
    private func estimateGains(block: Int64, position: Int, run: inout RunState) {
        let frames = blockFrames
        let firstFrame = block * Int64(frames)
        let peaks = blockPeaks.base
        let neighbourhoodPeak = max(peaks[position - 1], peaks[position], peaks[position + 1])
        let gains = neededGains.base
        let mask = gainMask
        // The ring's size is a multiple of the block, so a block never wraps.
        let gainBlock = (Int(firstFrame) & mask) / frames
        guard neighbourhoodPeak * interpolationBound > knee else {
            if gainBlockLowered[gainBlock] {
                (gains + (Int(firstFrame) & mask)).update(repeating: 1, count: frames)
                gainBlockLowered[gainBlock] = false
            }
            return
        }
        let channels = channelCount
        let samplesPerBlock = frames * channels
        let samples = input.base + position * samplesPerBlock
        let phases = oversampling - 1
        // Each sample's magnitude, then each phase's interpolation over the whole block, tap after tap: loops over
        // consecutive samples with no dependence between them, which the compiler vectorises (a sum per point,
        // tap by tap, is a chain of twelve additions, and it was most of a guided render's time). Every point's
        // sum still adds its taps in order from zero, so the values are the same to the bit.
        //
        // Only the runs of frames whose interpolation window (frames n − 5 … n + 6) can reach the knee are
        // interpolated, found `Self.runFrames` at a time: a spoken word or a chime's attack lifts a block over
        // the bound, but most of its frames stay far under it. A frame left out has every point under the knee,
        // so its gain is 1 as the full estimate would make it.
        let magnitudes = truePeakScratch.base
        let sums = interpolationScratch.base
        for index in 0..<samplesPerBlock { magnitudes[index] = abs(samples[index]) }
        let knee = self.knee
        // A hair over the taps' bound, so a point's rounding can never carry it past one the test let through.
        let bound = interpolationBound * (1 + 1.0 / 1024)
        let runFrames = Self.runFrames
        var runStart = 0
        while runStart < frames {
            // The next stretch of whole sub-blocks that need interpolating.
            var first = runStart
            while first < frames && !Self.mayReachKnee(samples, from: first - 5, to: first + runFrames + 6, channels: channels, knee: knee, bound: bound) {
                first += runFrames
            }
            var end = first
            while end < frames && Self.mayReachKnee(samples, from: end - 5, to: end + runFrames + 6, channels: channels, knee: knee, bound: bound) {
                end += runFrames
            }
            runStart = end
            guard first < end else { break }
            let start = first * channels
            let count = (min(end, frames) - first) * channels
            taps.withUnsafeBufferPointer { taps in
                guard let taps = taps.baseAddress else { return }
                if usesVectorInterpolation {
                    // The same sums in AVX's lanes, each kept in a register through its taps: a guided render spent
                    // 13 % of its CPU in this function with Swift's loops.
                    SynthKernel.interpolationPeaksInLanes(samples + start, count: count, channels: channels, taps: taps, phases: phases, magnitudes: magnitudes + start)
                    return
                }
                for phase in 0..<phases {
                    let phaseTaps = taps + phase * Self.tapCount
                    (sums + start).update(repeating: 0, count: count)
                    for k in 0..<Self.tapCount {
                        let tap = phaseTaps[k]
                        let source = samples + start + (k - 5) * channels
                        let target = sums + start
                        for index in 0..<count { target[index] += tap * source[index] }
                    }
                    for index in start..<(start + count) {
                        let magnitude = abs(sums[index])
                        magnitudes[index] = magnitude > magnitudes[index] ? magnitude : magnitudes[index]
                    }
                }
            }
        }
        let range = ceiling - knee
        var limited = false
        var smallest = run.smallestNeededGain
        for frame in 0..<frames {
            var truePeak: Float = 0
            for channel in 0..<channels {
                let magnitude = magnitudes[frame * channels + channel]
                truePeak = magnitude > truePeak ? magnitude : truePeak
            }
            var gain: Float = 1
            if truePeak > knee {
                let u = (truePeak - knee) / range
                gain = (knee + range * (u / (1 + u))) / truePeak
                limited = true
                smallest = min(smallest, gain)
            }
            gains[(Int(firstFrame) + frame) & mask] = gain
        }
        run.smallestNeededGain = smallest
        gainBlockLowered[gainBlock] = limited
        if limited {
            limitedBlocks[(run.limitedFirst + run.limitedCount) % limitedBlocks.count] = block
            run.limitedCount += 1
        }
    }

    /// Frames per stretch `estimateGains` decides to interpolate or not (the block is a whole number of them).
    private static let runFrames = 8

    /// Whether any sample of frames `from..<to` (interleaved `channels`), times the interpolation's `bound`,
    /// passes `knee`: if none does, no point interpolated from them can.
    @inline(__always)
    private static func mayReachKnee(_ samples: UnsafePointer<Float>, from: Int, to: Int, channels: Int, knee: Float, bound: Float) -> Bool {
        SamplePeak.largestMagnitude(of: samples + from * channels, count: (to - from) * channels) * bound > knee
    }

    /// Writes `block` of the output: the input unchanged when nothing in its window needs limiting, else each
    /// frame times its smoothed gain.
    private func limit(block: Int64, from samples: UnsafeMutablePointer<Float>, into destination: UnsafeMutablePointer<Float>?, run: inout RunState) {
        let frames = blockFrames
        let channels = channelCount
        let firstFrame = block * Int64(frames)
        let earliest = firstFrame - Int64(holdFrames + lookAheadFrames)
        let latest = firstFrame + Int64(frames - 1 + lookAheadFrames)
        let limitedBlocks = self.limitedBlocks
        while run.limitedCount > 0 && (limitedBlocks[run.limitedFirst] + 1) * Int64(frames) <= earliest {
            run.limitedFirst = (run.limitedFirst + 1) % limitedBlocks.count
            run.limitedCount -= 1
        }
        if run.limitedCount == 0 || limitedBlocks[run.limitedFirst] * Int64(frames) > latest {
            destination?.update(from: samples, count: frames * channels)
            run.idle = true
            return
        }
        if run.idle { restartSmoothing(before: firstFrame, run: &run) }
        run.idle = false
        let gains = neededGains.base
        let mask = gainMask
        let hold = Int64(holdFrames)
        let lookAhead = Int64(lookAheadFrames)
        let unit = Float(Self.unitGain)
        let norm = Double(attackFrames) * Double(smoothingFrames) * Double(Self.unitGain)
        // The state in plain locals for the loop.
        let queueMask = self.queueMask
        let queue = minimumQueue, minima = self.minima, boxSums = self.boxSums
        var queueFront = run.queueFront, queueCount = run.queueCount
        var minimaIndex = run.minimaIndex, minimaSum = run.minimaSum
        var boxSumsIndex = run.boxSumsIndex, boxSumsSum = run.boxSumsSum
        for frame in 0..<frames {
            let at = firstFrame + Int64(frame)
            // The sliding minimum over [at − hold, at + lookAhead].
            let entering = at + lookAhead
            let enteringGain = gains[Int(entering) & mask]
            while queueCount > 0 && gains[Int(queue[(queueFront + queueCount - 1) & queueMask]) & mask] >= enteringGain {
                queueCount -= 1
            }
            queue[(queueFront + queueCount) & queueMask] = entering
            queueCount += 1
            while queue[queueFront] < at - hold {
                queueFront = (queueFront + 1) & queueMask
                queueCount -= 1
            }
            let minimum = Int64(gains[Int(queue[queueFront]) & mask] * unit)
            minimaSum += minimum - minima[minimaIndex]
            minima[minimaIndex] = minimum
            minimaIndex = minimaIndex + 1 == minima.count ? 0 : minimaIndex + 1
            boxSumsSum += minimaSum - boxSums[boxSumsIndex]
            boxSums[boxSumsIndex] = minimaSum
            boxSumsIndex = boxSumsIndex + 1 == boxSums.count ? 0 : boxSumsIndex + 1
            let gain = Float(Double(boxSumsSum) / norm)
            guard let destination else { continue }
            for channel in 0..<channels {
                destination[frame * channels + channel] = samples[frame * channels + channel] * gain
            }
        }
        run.queueFront = queueFront
        run.queueCount = queueCount
        run.minimaIndex = minimaIndex
        run.minimaSum = minimaSum
        run.boxSumsIndex = boxSumsIndex
        run.boxSumsSum = boxSumsSum
    }

    /// The smoothing state of a stretch with nothing to limit, standing at the frame before `frame`.
    private func restartSmoothing(before frame: Int64, run: inout RunState) {
        minima.update(repeating: Self.unitGain)
        run.minimaSum = Self.unitGain * Int64(attackFrames)
        boxSums.update(repeating: run.minimaSum)
        run.boxSumsSum = run.minimaSum * Int64(smoothingFrames)
        run.minimaIndex = 0
        run.boxSumsIndex = 0
        // Every needed gain up to the frame before's look-ahead is 1: the newest of them stands for them all.
        run.queueFront = 0
        run.queueCount = 1
        minimumQueue[0] = frame - 1 + Int64(lookAheadFrames)
    }

    /// sin(πx)/(πx).
    private static func sinc(_ x: Double) -> Double {
        x == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x)
    }

    /// A Blackman window over distances −6 … 6.
    private static func window(_ distance: Double) -> Double {
        let t = distance / 6.5
        return 0.42 + 0.5 * cos(Double.pi * t) + 0.08 * cos(2 * Double.pi * t)
    }
}
