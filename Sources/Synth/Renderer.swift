import Breath
import NagiMath

/// Turns a breathing schedule into sound, pulled block by block: the same `render(into:frameCount:)` feeds a
/// file writer, the ALSA loop, a test or a benchmark, and the output is the same sample for sample whatever
/// block sizes it is called with.
///
/// Frame 0 of the output is the schedule's frame 0. The output is the schedule, then the soundscape's
/// release, then digital silence (`totalFrameCount` frames); frames asked for past the end are silence.
///
/// How it keeps exact and fast: parameters come from `ControlCurves` (through `ControlSequencer`) at every
/// control block boundary, `controlBlockFrames` apart on absolute frame indexes (not call boundaries), and
/// are interpolated linearly per sample; slow modulators are sampled every `slowBlockFrames`. Oscillator
/// phases are Doubles advanced per block by the integrated frequency and handed to the kernel as Floats;
/// noise beds and chimes are tables built once per render; a call whose edges fall inside a block renders
/// that whole block into a staging buffer and copies from it, so every block is rendered exactly once.
/// The output's peak stays at or below the soundscape's limiter ceiling (≤ −1 dBFS).
/// Not thread-safe: one renderer belongs to one pulling loop.
public final class Renderer {
    /// Interleaved channels per frame: 1 or 2.
    public let channelCount: Int
    /// Frames per second.
    public let sampleRate: Int
    /// Frames in the whole render: the schedule's, the release and the closing silence.
    public let totalFrameCount: Int64
    /// The next frame `render(into:frameCount:)` writes.
    public private(set) var nextFrame: Int64 = 0
    /// The control curves the sound follows (the same values a plot draws).
    public let curves: ControlCurves
    /// Whether the phase chimes sound.
    public let cuesEnabled: Bool
    /// The voices included.
    public let voices: Voices
    /// The seed of the noise beds.
    public let seed: UInt64

    /// Frames per control block: parameters are evaluated on multiples of it and interpolated between
    /// (1.3 ms at 48 kHz).
    public static let controlBlockFrames = 64
    /// Frames between slow control points (everything that moves on scales of 0.2 s and more).
    static let slowBlockFrames = 512

    private let waterLoop: NoiseLoop
    private let rainLoop: NoiseLoop?
    private var cues: CueTrack
    private let ramp: FloatBuffer
    private let triangle: FloatBuffer
    private let cueScratch: FloatBuffer
    private let midScratch: FloatBuffer
    private let padScratch: FloatBuffer
    private let staging: FloatBuffer
    private let constants: SynthKernel.Constants
    private let limiter: PeakLimiter
    private var control: ControlSequencer
    private let budget: PeakBudget
    private var state: EngineState
    /// The absolute start frame of the block held in `staging` (−1: none).
    private var stagedBlockStart: Int64 = -1

    /// The largest magnitude each voice's unit-gain signal reaches, so a block's peak is bounded by
    /// Σ gain·peak before it is rendered; only a block whose bound passes the knee goes through the limiter.
    private struct PeakBudget {
        var tone: Double
        var trail: Double
        /// Water and rain per unit gain in the louder channel (mid + width·side).
        var water: Double
        var rain: Double
    }

    /// Everything that changes from block to block.
    private struct EngineState {
        /// First frame of the next block to render.
        var blockStart: Int64 = 0
        /// Oscillator phases in cycles, [0, 1).
        var tonePhase = 0.0
        var trailPhase = 0.0
        /// The control values at `blockStart`.
        var point = ControlSequencer.Point()
        /// Read positions in the noise loops for `blockStart`: mid at frame mod length, side half a loop on.
        var waterMid = 0
        var waterSide = 0
        var rainMid = 0
        var rainSide = 0
    }

    /// A renderer for `schedule` in `soundscape`, writing `channelCount` (1 or 2) interleaved channels;
    /// `seed` fixes the noise beds, `cuesEnabled` false removes only the chimes (every other sample is
    /// identical), `voices` isolates voices for measurement.
    public init(schedule: Schedule, soundscape: Soundscape, channelCount: Int, cuesEnabled: Bool, seed: UInt64, voices: Voices = .all) {
        precondition(channelCount == 1 || channelCount == 2, "channelCount must be 1 or 2, not \(channelCount)")
        let blockFrames = Self.controlBlockFrames
        let curves = ControlCurves(schedule: schedule, soundscape: soundscape)
        let rate = Double(schedule.sampleRate)
        self.channelCount = channelCount
        self.sampleRate = schedule.sampleRate
        self.totalFrameCount = curves.totalFrameCount
        self.curves = curves
        self.cuesEnabled = cuesEnabled
        self.voices = voices
        self.seed = seed

        waterLoop = NoiseLoop.water(soundscape.water, sampleRate: schedule.sampleRate, seed: seed, padding: blockFrames)
        rainLoop = soundscape.rain.map { NoiseLoop.rain($0, sampleRate: schedule.sampleRate, seed: seed, padding: blockFrames) }
        cues = CueTrack(
            schedule: schedule, bank: CueBank(soundscape.cues, sampleRate: schedule.sampleRate),
            enabled: cuesEnabled && voices.contains(.cues))

        ramp = FloatBuffer(count: blockFrames)
        triangle = FloatBuffer(count: blockFrames)
        for n in 0..<blockFrames {
            ramp.base[n] = Float(n)
            triangle.base[n] = Float(n * (n - 1) / 2)
        }
        cueScratch = FloatBuffer(count: blockFrames)
        midScratch = FloatBuffer(count: blockFrames)
        padScratch = FloatBuffer(count: blockFrames)
        staging = FloatBuffer(count: blockFrames * channelCount)

        // Harmonics that would pass 0.45·rate at the highest pitch (vibrato included) are dropped.
        let nyquistLimit = 0.45 * rate
        let shimmer = soundscape.shimmer
        let highestTone = soundscape.tone.highFrequencyHz * exp2(shimmer.amplitudePoints * shimmer.vibratoCentsPerPoint / 1200)
        let water = ShapingPolynomial.coefficients(
            harmonics: soundscape.tone.waterHarmonics, degree: 4, highestFundamentalHz: highestTone, nyquistLimitHz: nyquistLimit)
        let sky = ShapingPolynomial.coefficients(
            harmonics: soundscape.tone.skyHarmonics, degree: 4, highestFundamentalHz: highestTone, nyquistLimitHz: nyquistLimit)
        let trail = ShapingPolynomial.coefficients(
            harmonics: soundscape.trail.harmonics, degree: 3,
            highestFundamentalHz: soundscape.tone.highFrequencyHz * soundscape.trail.pitchRatio, nyquistLimitHz: nyquistLimit)
        constants = SynthKernel.Constants(
            water: (Float(water[0]), Float(water[1]), Float(water[2]), Float(water[3]), Float(water[4])),
            skyDifference: (Float(sky[0] - water[0]), Float(sky[1] - water[1]), Float(sky[2] - water[2]), Float(sky[3] - water[3]), Float(sky[4] - water[4])),
            trail: (Float(trail[0]), Float(trail[1]), Float(trail[2]), Float(trail[3])),
            waterWidth: Float(soundscape.water.width),
            rainWidth: Float(soundscape.rain?.width ?? 0)
        )
        limiter = PeakLimiter(
            knee: Float(Decibels.gain(soundscape.limiter.kneeDecibels)),
            ceiling: Float(Decibels.gain(soundscape.limiter.ceilingDecibels)))
        control = ControlSequencer(
            curves: curves,
            gains: ControlSequencer.VoiceGains(
                tone: voices.contains(.tone) ? 1 : 0,
                trail: voices.contains(.trail) ? 1 : 0,
                water: voices.contains(.water) ? Decibels.gain(soundscape.water.gainDecibels) : 0,
                rain: voices.contains(.rain) ? soundscape.rain.map { Decibels.gain($0.gainDecibels) } ?? 0 : 0,
                cue: Decibels.gain(soundscape.cues.gainDecibels)),
            slowFrames: Self.slowBlockFrames)
        // The cosine is within 7·10⁻⁵ of exact, so Σ hₖ cos kθ stays within 1.001·Σ|hₖ|.
        let stereoSpread = channelCount == 2 ? 1.0 : 0.0
        budget = PeakBudget(
            tone: 1.001 * max(ShapingPolynomial.bound(harmonics: soundscape.tone.waterHarmonics),
                              ShapingPolynomial.bound(harmonics: soundscape.tone.skyHarmonics)),
            trail: 1.001 * ShapingPolynomial.bound(harmonics: soundscape.trail.harmonics),
            water: Double(max(waterLoop.primary.peak, waterLoop.secondary?.peak ?? 0)) * (1 + stereoSpread * soundscape.water.width),
            rain: Double(rainLoop?.primary.peak ?? 0) * (1 + stereoSpread * (soundscape.rain?.width ?? 0)))
        state = EngineState()
        state.point = control.point(at: 0)
        state.waterSide = waterLoop.length / 2
        state.rainSide = (rainLoop?.length ?? 1) / 2
    }

    /// Writes `frameCount` interleaved frames starting at `nextFrame` into `buffer` and advances `nextFrame`
    /// (at most `buffer.count / channelCount` frames). Frames past `totalFrameCount` are silence.
    public func render(into buffer: UnsafeMutableBufferPointer<Float>, frameCount: Int) {
        guard let base = buffer.baseAddress else { return }
        let frames = min(frameCount, buffer.count / channelCount)
        let blockFrames = Self.controlBlockFrames
        var done = 0
        while done < frames {
            let offsetInBlock = Int(nextFrame % Int64(blockFrames))
            let remaining = frames - done
            let destination = base + done * channelCount
            if offsetInBlock == 0 && remaining >= blockFrames {
                let blocks = remaining / blockFrames
                renderBlocks(into: destination, count: blocks)
                done += blocks * blockFrames
                nextFrame += Int64(blocks * blockFrames)
            } else {
                let blockStart = nextFrame - Int64(offsetInBlock)
                if stagedBlockStart != blockStart {
                    renderBlocks(into: staging.base, count: 1)
                    stagedBlockStart = blockStart
                }
                let take = min(blockFrames - offsetInBlock, remaining)
                destination.update(from: staging.base + offsetInBlock * channelCount, count: take * channelCount)
                done += take
                nextFrame += Int64(take)
            }
        }
    }

    /// Renders the next `count` control blocks (from `state.blockStart`) into `output`.
    private func renderBlocks(into output: UnsafeMutablePointer<Float>, count: Int) {
        let blockFrames = Self.controlBlockFrames
        let blockLength = Int64(blockFrames)
        let channels = channelCount
        let silenceStart = curves.silenceStartFrame
        let waterLength = waterLoop.length
        let rainLength = rainLoop?.length ?? 1
        let constants = self.constants
        let knee = limiter.knee
        let stereo = channels == 2
        let hasRain = rainLoop != nil
        let cueScratch = self.cueScratch.base
        let ramp = self.ramp.base
        let tables = SynthKernel.Tables(
            ramp: ramp, triangle: triangle.base,
            waterDark: waterLoop.primary.base, waterBright: waterLoop.secondary?.base ?? waterLoop.primary.base,
            rain: rainLoop?.primary.base ?? waterLoop.primary.base, cue: cueScratch)
        let midScratch = self.midScratch.base
        let padScratch = self.padScratch.base
        var state = self.state
        var control = self.control
        var cues = self.cues
        defer {
            self.state = state
            self.control = control
            self.cues = cues
        }

        for blockIndex in 0..<count {
            let out = output + blockIndex * blockFrames * channels
            let blockStart = state.blockStart
            let blockEnd = blockStart + blockLength
            state.blockStart = blockEnd
            if blockStart >= silenceStart {
                out.update(repeating: 0, count: blockFrames * channels)
                continue
            }
            let start = state.point
            let end = control.point(at: blockEnd)

            var block = SynthKernel.Block(from: start, to: end, frames: blockFrames)
            block.tonePhase = Float(state.tonePhase)
            block.trailPhase = Float(state.trailPhase)
            block.waterMid = state.waterMid
            block.waterSide = state.waterSide
            block.rainMid = state.rainMid
            block.rainSide = state.rainSide
            // The loop positions are (frame + offset) mod length, stepped without dividing.
            state.waterMid = Self.step(state.waterMid, by: blockFrames, length: waterLength)
            state.waterSide = Self.step(state.waterSide, by: blockFrames, length: waterLength)
            state.rainMid = Self.step(state.rainMid, by: blockFrames, length: rainLength)
            state.rainSide = Self.step(state.rainSide, by: blockFrames, length: rainLength)

            // Integrate the linear glide exactly: Σ over the block of (increment + n·slope).
            let glideSum = Double(blockFrames - 1) * 0.5
            state.tonePhase += Double(blockFrames) * start.toneIncrement + (end.toneIncrement - start.toneIncrement) * glideSum
            state.tonePhase -= Double(Int64(state.tonePhase))  // phases are never negative: truncation is floor
            state.trailPhase += Double(blockFrames) * start.trailIncrement + (end.trailIncrement - start.trailIncrement) * glideSum
            state.trailPhase -= Double(Int64(state.trailPhase))

            let cuePeak = cues.mix(
                into: cueScratch, blockStart: blockStart, frames: blockFrames, startGain: start.cueGain, endGain: end.cueGain, ramp: ramp)

            SynthKernel.render(block, constants: constants, tables: tables, frameCount: blockFrames, output: out,
                               mid: midScratch, padCosine: padScratch, stereo: stereo, rain: hasRain)
            // The bound is free and almost always below the knee; past it, the exact peak decides.
            if peakBound(start, end, cuePeak: cuePeak) > knee && PeakLimiter.peak(of: out, count: blockFrames * channels) > knee {
                limiter.apply(to: out, count: blockFrames * channels)
            }
            if blockEnd > silenceStart {
                let silentFrom = Int(silenceStart - blockStart)
                (out + silentFrom * channels).update(repeating: 0, count: (blockFrames - silentFrom) * channels)
            }
            state.point = end
        }
    }

    /// `position + frames` wrapped into a loop of `length` (frames ≤ length).
    private static func step(_ position: Int, by frames: Int, length: Int) -> Int {
        let next = position + frames
        return next >= length ? next - length : next
    }

    /// An upper bound of the block's output magnitude: Σ over voices of the larger end gain × the voice's
    /// unit peak, plus the cue scratch's peak.
    private func peakBound(_ start: ControlSequencer.Point, _ end: ControlSequencer.Point, cuePeak: Float) -> Float {
        let tone = max(abs(start.toneGain), abs(end.toneGain)) * budget.tone
        let trail = max(abs(start.trailGain), abs(end.trailGain)) * budget.trail
        let water = (max(start.darkGain, end.darkGain) + max(start.brightGain, end.brightGain)) * budget.water
        let rain = max(start.rainGain, end.rainGain) * budget.rain
        return Float(tone + trail + water + rain) + cuePeak
    }
}
