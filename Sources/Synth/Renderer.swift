import Breath
import NagiBase
import NagiMath

/// Turns a breathing schedule into sound, pulled block by block: the same `render(into:frameCount:)` feeds a
/// file writer, the ALSA loop, a test or a benchmark, and the output is the same sample for sample whatever
/// block sizes it is called with.
///
/// Frame 0 of the output is the schedule's frame 0 less any countdown's lead-in. The output is the lead-in, the
/// schedule, then the soundscape's release, then any ending, then digital silence (`totalFrameCount` frames);
/// frames asked for past the end are silence.
///
/// How it keeps exact and fast: parameters come from `ControlCurves` (through `ControlSequencer`) at every
/// control block boundary, `controlBlockFrames` apart on absolute frame indexes (not call boundaries), and
/// are interpolated linearly per sample; slow modulators are sampled every `slowBlockFrames`. Oscillator
/// phases are Doubles advanced per block by the integrated frequency and handed to the kernel as Floats;
/// noise beds, chimes, ticks and clips are tables built once per render (`RenderPlan`); a call whose edges fall inside a block renders
/// that whole block into a staging buffer and copies from it, so every block is rendered exactly once.
/// The output stage is a look-ahead true-peak limiter (`TruePeakLimiter`): the synthesis runs its delay ahead
/// of the output, and the output's true peak stays under the limiter's ceiling (at most
/// `RenderPlan.truePeakCeilingDecibels`). Not thread-safe: one renderer belongs to one pulling loop.
public final class Renderer {
    /// The compiled render this renderer plays.
    public let plan: RenderPlan
    /// Interleaved channels per frame: 1 or 2.
    public let channelCount: Int
    /// Frames per second.
    public let sampleRate: Int
    /// Frames in the whole render: the schedule's, the release and the closing silence.
    public let totalFrameCount: Int64
    /// The next frame `render(into:frameCount:)` writes.
    public private(set) var nextFrame: Int64 = 0
    /// The synthesis's next frame (the schedule's frame: the output frame less the lead-in).
    private var breathingFrame: Int64 = 0
    /// Output frames before the schedule's frame 0 (the countdown).
    private let leadInFrameCount: Int64
    /// Whether an ending follows the release, and the output frame it starts on.
    private let hasEnding: Bool
    private let endingStartFrame: Int64
    /// The control curves the sound follows (the same values a plot draws).
    public var curves: ControlCurves { plan.curves }
    /// The most the limiter has had to turn any frame down since the start or the last seek, dB (0: never).
    public var largestLimitingDecibels: Double { -20 * log10(Double(limiter.smallestNeededGain)) }

    /// The listener's volume in dB (0 unless `setLiveGain(decibels:)` moved it).
    public private(set) var liveGainDecibels = 0.0

    /// Frames per control block: parameters are evaluated on multiples of it and interpolated between
    /// (1.3 ms at 48 kHz).
    public static let controlBlockFrames = 64
    /// Frames between slow control points (everything that moves on scales of 0.2 s and more).
    static let slowBlockFrames = 512

    /// The voices added to the centre before the fused kernel runs (chimes, ticks, clips).
    private let addedVoices: [MixVoice]
    /// The user's recording under the session, when the settings name one and a recording was given.
    private let bedVoice: BedVoice?
    private let ramp: FloatBuffer
    private let triangle: FloatBuffer
    private let guideScratch: FloatBuffer
    private let midScratch: FloatBuffer
    private let padScratch: FloatBuffer
    private let beatScratch: FloatBuffer
    private let staging: FloatBuffer
    /// Whether the plain kernel runs in AVX's lanes (`SynthKernel.renderInLanes`): where the machine has them, unless
    /// a test turns them off to compare the two to the bit.
    var usesKernelLanes = SynthKernel.lanesAvailable
    private var control: ControlSequencer
    private var state: EngineState
    /// Control points computed ahead of the synthesis (`prepareControl`), read by the blocks they belong to; while
    /// it holds any, `control` stands at its last block's end.
    private let lead = ControlLead()
    /// The beat's phase increment per hertz of beat, cycles per frame: binaural ears sit half a beat either side of
    /// the centre, so the kernel turns the half-beat's phase (kept in [0, 1) like any other, so it never wraps by
    /// half a cycle); isochronic pulses turn the whole beat's.
    private let beatCyclesPerHertzFrame: Double
    /// The output stage; the synthesis (`state`) stands its `delayFrames` ahead of `nextFrame`.
    private let limiter: TruePeakLimiter
    /// Blocks to synthesize and pass through the limiter, discarding its output, before the next output block:
    /// the limiter's delay after a start, its history and delay after a seek.
    private var prerollBlocks: Int
    /// The listener's volume, applied after the loudness gain and before the limiter.
    private var liveGain: LiveGain
    /// The listener's volume on the countdown and the ending, which pass no limiter: it follows the volume down but
    /// never above 0 dB, so they stay under the ceiling as rendered.
    private var framingGain: LiveGain
    /// Whether the guide scratch holds samples (so it is cleared once when the last guide sound ends).
    private var guideScratchInUse = false
    /// The absolute start frame of the block held in `staging` (−1: none).
    private var stagedBlockStart: Int64 = -1

    /// Everything that changes from block to block.
    struct EngineState {
        /// First frame of the next block to render.
        var blockStart: Int64 = 0
        /// Oscillator phases in cycles, [0, 1).
        var tonePhase = 0.0
        var trailPhase = 0.0
        /// The beat's phase in cycles, [0, 1), and its increment at `blockStart` (cycles per frame): half the beat's
        /// for binaural (each ear's offset from the centre), the whole beat's for isochronic.
        var beatPhase = 0.0
        var beatIncrement = 0.0
        /// The control values at `blockStart`.
        var point = ControlSequencer.Point()
        /// The beds' factor at `blockStart` (1 unless ducked under a clip).
        var bedFactor = 1.0
        /// Read positions in the noise loops for `blockStart`: mid at frame mod length, side half a loop on.
        var waterMid = 0
        var waterSide = 0
        var rainMid = 0
        var rainSide = 0

        /// Advances the oscillator phases over one block of `frames` from the control point `start` to `end`, and
        /// the beat's to `beatEndIncrement` (nil: no beat). Rendering and seeking share it, so their Double sums
        /// agree bit for bit.
        @inline(__always)
        mutating func advanceOscillators(from start: ControlSequencer.Point, to end: ControlSequencer.Point, beatEndIncrement: Double?, frames: Int) {
            // Integrate the linear glide exactly: Σ over the block of (increment + n·slope).
            let glideSum = Double(frames - 1) * 0.5
            tonePhase += Double(frames) * start.toneIncrement + (end.toneIncrement - start.toneIncrement) * glideSum
            tonePhase -= Double(Int64(tonePhase))  // phases are never negative: truncation is floor
            trailPhase += Double(frames) * start.trailIncrement + (end.trailIncrement - start.trailIncrement) * glideSum
            trailPhase -= Double(Int64(trailPhase))
            if let endIncrement = beatEndIncrement {
                beatPhase += Double(frames) * beatIncrement + (endIncrement - beatIncrement) * glideSum
                beatPhase -= Double(Int64(beatPhase))
                beatIncrement = endIncrement
            }
        }
    }

    /// A renderer pulling samples from `plan`, with `bed` (the recording's frames at the session's rate in the
    /// render's channels, read from its first frame and looped) under the session when the settings carry a
    /// `BedMix`. A bed that cannot throw: one that fails keeps its failure for its owner and reads as ended.
    public convenience init(plan: RenderPlan, bed: (any FrameReader<Never>)? = nil) {
        self.init(plan: plan, loopedBed: bed.map { BedLooping.frames(of: $0, for: plan, largestRead: Self.controlBlockFrames) })
    }

    /// A renderer pulling samples from `plan`, with the looped bed `loopedBed` (endless, at its frame 0, read at
    /// most a control block at a time) under the session when the settings carry a `BedMix`.
    public init(plan: RenderPlan, loopedBed: (any FrameReader<Never>)?) {
        let blockFrames = Self.controlBlockFrames
        self.plan = plan
        channelCount = plan.settings.channelCount
        sampleRate = plan.sampleRate
        totalFrameCount = plan.totalFrameCount
        leadInFrameCount = plan.guide.framing.leadInFrameCount
        hasEnding = plan.guide.framing.endingFrameCount > 0
        endingStartFrame = plan.guide.framing.endingStartFrame
        addedVoices = plan.makeVoices()
        bedVoice = plan.settings.bed == nil ? nil : loopedBed.map { frames in
            BedVoice(frames: frames, channelCount: plan.settings.channelCount, blockFrames: blockFrames)
        }
        ramp = FloatBuffer(count: blockFrames)
        triangle = FloatBuffer(count: blockFrames)
        for n in 0..<blockFrames {
            ramp.base[n] = Float(n)
            triangle.base[n] = Float(n * (n - 1) / 2)
        }
        guideScratch = FloatBuffer(count: blockFrames)
        midScratch = FloatBuffer(count: blockFrames)
        padScratch = FloatBuffer(count: blockFrames)
        beatScratch = FloatBuffer(count: blockFrames)
        staging = FloatBuffer(count: blockFrames * channelCount)
        var control = Self.makeControl(plan)
        state = Self.initialState(plan, control: &control)
        self.control = control
        limiter = TruePeakLimiter(
            knee: plan.limiter.knee, ceiling: plan.limiter.ceiling, sampleRate: plan.sampleRate,
            channelCount: channelCount, blockFrames: blockFrames)
        prerollBlocks = limiter.delayFrames / blockFrames
        beatCyclesPerHertzFrame = (plan.beatMode == .binaural ? 0.5 : 1) / Double(plan.sampleRate)
        liveGain = LiveGain(sampleRate: plan.sampleRate)
        framingGain = LiveGain(sampleRate: plan.sampleRate)
    }

    /// Sets the listener's volume to `decibels` (live playback's `+` and `-`), ramped linearly in amplitude over
    /// 50 ms from where it stands; before the first frame is rendered it applies at once. It sits ahead of the
    /// true-peak limiter, so even a raised volume stays under the ceiling; the change reaches the output after
    /// the limiter's look-ahead (a few ms). Call between renders.
    public func setLiveGain(decibels: Double) {
        liveGainDecibels = decibels
        let isStart = nextFrame == 0 && state.blockStart == 0
        liveGain.set(to: Float(Decibels.gain(decibels)), immediately: isStart)
        framingGain.set(to: Float(Decibels.gain(min(0, decibels))), immediately: isStart)
    }

    /// The control sequencer at frame 0.
    private static func makeControl(_ plan: RenderPlan) -> ControlSequencer {
        ControlSequencer(curves: plan.curves, gains: plan.gains, slowFrames: slowBlockFrames)
    }

    /// The engine's state before the first block, reading frame 0's control point from the fresh `control`.
    private static func initialState(_ plan: RenderPlan, control: inout ControlSequencer) -> EngineState {
        var state = EngineState()
        state.point = control.point(at: 0)
        state.beatIncrement = plan.settings.beat.map {
            $0.frequencyHz(at: 0, in: plan.schedule) * (plan.beatMode == .binaural ? 0.5 : 1) / Double(plan.sampleRate)
        } ?? 0
        state.waterSide = plan.waterLoop.length / 2
        state.rainSide = (plan.rainLoop?.length ?? 1) / 2
        return state
    }

    /// A renderer for `schedule` under `settings` (compiles the plan).
    public convenience init(schedule: Schedule, settings: RenderSettings, text: [PhaseGuideText]? = nil, bed: (any FrameReader<Never>)? = nil) {
        self.init(plan: RenderPlan(schedule: schedule, settings: settings, text: text), bed: bed)
    }

    /// A renderer with chimes on or off and no other guide: `RenderSettings` with `cues` chimes or none.
    public convenience init(schedule: Schedule, soundscape: Soundscape, channelCount: Int, cuesEnabled: Bool, seed: UInt64, voices: Voices = .all) {
        self.init(schedule: schedule, settings: RenderSettings(
            soundscape: soundscape, channelCount: channelCount, seed: seed, cues: cuesEnabled ? .chimes : .none, voices: voices))
    }

    /// Writes `frameCount` interleaved frames starting at `nextFrame` into `buffer` and advances `nextFrame`
    /// (at most `buffer.count / channelCount` frames). Frames past `totalFrameCount` are silence. The lead-in and
    /// the ending (`RenderPlan.guide.framing`) come from the plan's framing track; the breathing between them is
    /// the synthesis at its own frame (the output frame less the lead-in).
    public func render(into buffer: UnsafeMutableBufferPointer<Float>, frameCount: Int) {
        guard let base = buffer.baseAddress else { return }
        let frames = min(frameCount, buffer.count / channelCount)
        var done = 0
        while done < frames {
            let destination = base + done * channelCount
            let remaining = Int64(frames - done)
            let take: Int
            if nextFrame < leadInFrameCount {
                take = Int(min(remaining, leadInFrameCount - nextFrame))
                plan.framing.render(into: destination, startFrame: nextFrame, frameCount: take, channelCount: channelCount)
                if !framingGain.isUnity { framingGain.apply(to: destination, frameCount: take, channelCount: channelCount) }
            } else if !hasEnding || nextFrame < endingStartFrame {
                take = Int(hasEnding ? min(remaining, endingStartFrame - nextFrame) : remaining)
                renderBreathing(into: destination, frameCount: take)
            } else {
                take = Int(remaining)
                plan.framing.render(into: destination, startFrame: nextFrame, frameCount: take, channelCount: channelCount)
                if !framingGain.isUnity { framingGain.apply(to: destination, frameCount: take, channelCount: channelCount) }
            }
            done += take
            nextFrame += Int64(take)
        }
    }

    /// Writes the synthesis's next `frameCount` frames, from `breathingFrame`, into `base`.
    private func renderBreathing(into base: UnsafeMutablePointer<Float>, frameCount frames: Int) {
        let blockFrames = Self.controlBlockFrames
        var done = 0
        while done < frames {
            let offsetInBlock = Int(breathingFrame % Int64(blockFrames))
            let remaining = frames - done
            let destination = base + done * channelCount
            if offsetInBlock == 0 && remaining >= blockFrames {
                let blocks = remaining / blockFrames
                renderBlocks(into: destination, count: blocks)
                done += blocks * blockFrames
                breathingFrame += Int64(blocks * blockFrames)
            } else {
                let blockStart = breathingFrame - Int64(offsetInBlock)
                if stagedBlockStart != blockStart {
                    renderBlocks(into: staging.base, count: 1)
                    stagedBlockStart = blockStart
                }
                let take = min(blockFrames - offsetInBlock, remaining)
                destination.update(from: staging.base + offsetInBlock * channelCount, count: take * channelCount)
                done += take
                breathingFrame += Int64(take)
            }
        }
    }

    /// The bed frame the bed voice stops at: only sounding blocks read the bed (as they alone step the loops),
    /// so it reads frames up to the first silent block and none after.
    public static func firstBedlessFrame(of plan: RenderPlan) -> Int64 {
        let blockFrames = Int64(controlBlockFrames)
        return (plan.curves.silenceStartFrame + blockFrames - 1) / blockFrames * blockFrames
    }

    /// The most frames before a sought frame that a seek at `sampleRate` synthesizes again (and reads the bed
    /// from).
    public static func seekPrerollFrames(sampleRate: Int) -> Int {
        TruePeakLimiter.historyFrames(sampleRate: sampleRate, blockFrames: controlBlockFrames) + controlBlockFrames
    }

    /// Moves the output to `frame`: from there `render(into:frameCount:)` writes, sample for sample, what a
    /// renderer that had rendered every frame before it would write (whatever the block sizes, before or after;
    /// past `totalFrameCount`, silence). `nextFrame` becomes `frame`. The lead-in and the ending are functions of
    /// the frame; the synthesis moves to the frame less the lead-in (its frame 0 inside the lead-in; left where it
    /// is inside the ending, which it never reaches). Forward, the state moves on from where it is; back, it starts
    /// over from frame 0.
    ///
    /// No audio is rendered on the way. What is a function of the frame is set from it: the noise loops' read
    /// places ((frame + offset) mod length), the guide sounds' windows, the ducking, and the guide scratch
    /// (silent at every block start). The oscillator and beat phases are Double sums kept per control block,
    /// so they are replayed at control rate: one control point per block (the sequencer steps the trail's lag,
    /// its one recursive value, as when rendering), no kernel, no samples: a seek 10 minutes into a 48 kHz
    /// session (450 000 control points) measured 43–80 ms in a release build on two shared cores (`SeekTests`).
    /// A bed's recording is moved to its frame by `BedLoop.seek`: re-read and discarded up to its place in its
    /// pass (at most one pass of the recording; nothing for one held in memory), which for a streamed file
    /// costs its decoding.
    ///
    /// The limiter's output at a frame depends on its input `historyFrames` before it and `delayFrames` after it
    /// and on nothing else, so the synthesis is moved to `historyFrames` before the frame (or frame 0), the limiter
    /// restarted there, and that stretch synthesized and limited again (discarded) on the next render: about
    /// 30 ms of audio.
    public func seek(toFrame frame: Int64) {
        precondition(frame >= 0, "a frame is never negative")
        nextFrame = frame
        guard !hasEnding || frame < endingStartFrame else { return }
        seekBreathing(toFrame: max(0, frame - leadInFrameCount))
    }

    /// Moves the synthesis to its own `frame`.
    private func seekBreathing(toFrame frame: Int64) {
        moveSynthesis(to: seekTarget(forBreathing: frame))
        restartLimiter(forBreathing: frame)
    }

    /// The block a seek to the synthesis's own `frame` moves the synthesis to: the limiter's history before the
    /// frame's block (or frame 0).
    private func seekTarget(forBreathing frame: Int64) -> Int64 {
        let blockFrames = Int64(Self.controlBlockFrames)
        return max(0, frame - frame % blockFrames - Int64(limiter.historyFrames))
    }

    /// Restarts the limiter at the seek target of the synthesis's own `frame` (where the synthesis now stands),
    /// with the pre-roll up to the frame's block due on the next render.
    private func restartLimiter(forBreathing frame: Int64) {
        let blockFrames = Int64(Self.controlBlockFrames)
        let target = seekTarget(forBreathing: frame)
        limiter.reset(atFrame: target)
        prerollBlocks = Int((frame - frame % blockFrames - target + Int64(limiter.delayFrames)) / blockFrames)
        // The staged block (if any) is not the one the state stands at now.
        stagedBlockStart = -1
        breathingFrame = frame
    }

    /// Moves the synthesis to the block boundary `target`, as if every block before it had been synthesized.
    private func moveSynthesis(to target: Int64) {
        if target < state.blockStart {
            // Back: a fresh renderer's state, then forward like any seek.
            control = Self.makeControl(plan)
            state = Self.initialState(plan, control: &control)
            lead.clear()
            for voice in addedVoices { voice.rewind() }
        }
        advanceState(to: target)
        finishMove(to: target)
    }

    /// What every move of the synthesis to `target` ends with: the bed moved there, the guide scratch silent.
    private func finishMove(to target: Int64) {
        bedVoice?.seek(toFrame: min(target, Self.firstBedlessFrame(of: plan)))
        // The guide scratch is silent at every block start already (it is cleared after a block that used it);
        // clearing it here as well keeps that from resting on the flag.
        guideScratch.base.update(repeating: 0, count: Self.controlBlockFrames)
        guideScratchInUse = false
    }

    /// Moves `state` and `control` forward to the block starting at `target` (a block boundary at or after
    /// `state.blockStart`) as rendering would, without rendering.
    private func advanceState(to target: Int64) {
        let blockFrames = Self.controlBlockFrames
        let blockLength = Int64(blockFrames)
        let silenceStart = plan.curves.silenceStartFrame
        let hasBeat = plan.settings.beat != nil
        withMovingParts { state, control, lead in
            let from = state.blockStart
            // A block from the silence on changes nothing but the clock; so the state stops where the sound does.
            while state.blockStart < target && state.blockStart < silenceStart {
                let blockEnd = state.blockStart + blockLength
                let start = state.point
                let (end, beatEndIncrement) = self.blockEnd(at: blockEnd, lead: &lead, control: &control, hasBeat: hasBeat)
                state.advanceOscillators(from: start, to: end, beatEndIncrement: beatEndIncrement, frames: blockFrames)
                state.point = end
                state.blockStart = blockEnd
            }
            if state.blockStart > from { setFrameFunctions(&state) }
            state.blockStart = max(state.blockStart, target)
        }
    }

    /// Runs `body` on the renderer's moving parts (the engine's state, the control sequencer, the read place in the
    /// control lead) as locals, and keeps what it leaves in them: the block loops read and write locals, never the
    /// object's fields (a field write per block would be a store the loop cannot keep in registers).
    @inline(__always)
    private func withMovingParts(_ body: (inout EngineState, inout ControlSequencer, inout ControlLead.Cursor) -> Void) {
        var state = self.state
        var control = self.control
        var lead = self.lead.cursor
        body(&state, &control, &lead)
        self.state = state
        self.control = control
        self.lead.readIndex = lead.index
    }

    /// A block's end: the lead's next entry while it has one (computed ahead: the same Doubles the sequencer gave
    /// then), else the sequencer's.
    @inline(__always)
    private func blockEnd(
        at blockEnd: Int64, lead: inout ControlLead.Cursor, control: inout ControlSequencer, hasBeat: Bool
    ) -> (point: ControlSequencer.Point, beatIncrement: Double?) {
        if let led = lead.next(hasBeat: hasBeat) { return led }
        return sequencedEnd(at: blockEnd, control: &control)
    }

    /// A block's end from the sequencer: the control point at `blockEnd` and the beat's increment there (nil: no
    /// beat), cycles per frame. Rendering, seeking and leading all take a block's end from here (or from the lead,
    /// which took it from here), so their Doubles agree bit for bit.
    @inline(__always)
    private func sequencedEnd(at blockEnd: Int64, control: inout ControlSequencer) -> (point: ControlSequencer.Point, beatIncrement: Double?) {
        let point = control.point(at: blockEnd)
        return (point, plan.settings.beat.map { $0.frequencyHz(at: blockEnd, in: plan.schedule) * beatCyclesPerHertzFrame })
    }

    /// Sets what is a function of the frame in `state` (the ducking, the noise loops' read places) for its
    /// `blockStart`, where the synthesis stops after a move (the sound's last block boundary, at the latest).
    private func setFrameFunctions(_ state: inout EngineState) {
        let sounding = state.blockStart
        // The ducking is a function of the frame: the last block's end is all the next block needs.
        if !addedVoices.isEmpty {
            var bedFactor = 1.0
            for voice in addedVoices { bedFactor = min(bedFactor, voice.bedFactor(at: sounding)) }
            state.bedFactor = bedFactor
        }
        let waterLength = Int64(plan.waterLoop.length)
        state.waterMid = Int(sounding % waterLength)
        state.waterSide = Int((sounding + waterLength / 2) % waterLength)
        if let rainLoop = plan.rainLoop {
            let rainLength = Int64(rainLoop.length)
            state.rainMid = Int(sounding % rainLength)
            state.rainSide = Int((sounding + rainLength / 2) % rainLength)
        }
    }

    /// Where a seek to an output frame starts the synthesis, taken from a renderer that computed the control up
    /// to there ahead of its own synthesis (`prepareControl(frameCount:checkpointAt:)`), so that a renderer of the
    /// same plan can seek there (`seek(from:)`) without replaying the control curves of the frames before.
    public struct SeekCheckpoint: Sendable {
        /// The output frame it is for.
        public let frame: Int64
        /// The synthesis at the seek's target block, or nil when a plain seek costs nothing to speak of (inside the
        /// ending) or the lead did not pass the target.
        fileprivate let synthesis: Synthesis?

        fileprivate struct Synthesis: Sendable {
            /// The state where the sound stands (at `target`, or where the sound stopped before it); what is a
            /// function of the frame in it is set again by the seek.
            let state: EngineState
            /// The sequencer, asked for every point up to `state.blockStart`.
            let control: ControlSequencer
            /// The seek's target block.
            let target: Int64
        }
    }

    /// Computes the control points that the next `frameCount` output frames synthesize (up to the limiter's
    /// look-ahead past them) ahead of the synthesis, which then reads them instead of computing them, and returns
    /// the checkpoint for a seek to output frame `checkpointFrame` (normally where this render will end: the next
    /// slice's first frame, at or after the lead's own first block). What the renderer renders is unchanged.
    public func prepareControl(frameCount: Int, checkpointAt checkpointFrame: Int64) -> SeekCheckpoint {
        let blockFrames = Self.controlBlockFrames
        let blockLength = Int64(blockFrames)
        let silenceStart = plan.curves.silenceStartFrame
        // The synthesis's frame at the end of these output frames (it never passes the ending's start), rounded up
        // to its block, and the limiter's look-ahead beyond.
        let outputEnd = hasEnding ? min(nextFrame + Int64(frameCount), endingStartFrame) : nextFrame + Int64(frameCount)
        let breathingEnd = max(0, outputEnd - leadInFrameCount)
        let reach = (breathingEnd + blockLength - 1) / blockLength * blockLength + Int64(limiter.delayFrames)
        let inEnding = hasEnding && checkpointFrame >= endingStartFrame
        let target: Int64? = inEnding ? nil : seekTarget(forBreathing: max(0, checkpointFrame - leadInFrameCount))

        if lead.isEmpty {
            lead.clear()
            lead.endState = state
        }
        var leadState = lead.endState
        var control = self.control
        defer {
            self.control = control
            lead.endState = leadState
        }
        var synthesis: SeekCheckpoint.Synthesis?
        if let target, target == leadState.blockStart {
            synthesis = .init(state: leadState, control: control, target: target)
        }
        let stop = max(reach, target ?? 0)
        if stop > leadState.blockStart { lead.reserve(Int((stop - leadState.blockStart + blockLength - 1) / blockLength)) }
        // As `advanceState` moves (the sound stops at the silence), keeping every point.
        while leadState.blockStart < stop && leadState.blockStart < silenceStart {
            let blockEnd = leadState.blockStart + blockLength
            let (end, beatEndIncrement) = sequencedEnd(at: blockEnd, control: &control)
            leadState.advanceOscillators(from: leadState.point, to: end, beatEndIncrement: beatEndIncrement, frames: blockFrames)
            leadState.point = end
            leadState.blockStart = blockEnd
            lead.append(end, beatIncrement: beatEndIncrement ?? 0)
            if blockEnd == target {
                synthesis = .init(state: leadState, control: control, target: blockEnd)
            }
        }
        if synthesis == nil, let target, target > leadState.blockStart, leadState.blockStart >= silenceStart {
            // Past the sound's end: the state stopped there, as a seek's would.
            synthesis = .init(state: leadState, control: control, target: target)
        }
        return SeekCheckpoint(frame: checkpointFrame, synthesis: synthesis)
    }

    /// Moves the output to `checkpoint.frame` as `seek(toFrame:)` does, sample for sample, starting the synthesis
    /// from the checkpoint (made by this or another renderer of the same plan) instead of replaying the control
    /// curves up to it.
    public func seek(from checkpoint: SeekCheckpoint) {
        guard let synthesis = checkpoint.synthesis else {
            seek(toFrame: checkpoint.frame)
            return
        }
        let frame = checkpoint.frame
        nextFrame = frame
        let breathing = max(0, frame - leadInFrameCount)
        precondition(seekTarget(forBreathing: breathing) == synthesis.target, "a checkpoint is for its own frame")
        if synthesis.target < state.blockStart {
            for voice in addedVoices { voice.rewind() }
        }
        var moved = synthesis.state
        // Rendering keeps the frame functions as `setFrameFunctions` sets them, but at frame 0, where a fresh
        // state holds them (and the checkpoint's is one).
        if moved.blockStart > 0 { setFrameFunctions(&moved) }
        moved.blockStart = max(moved.blockStart, synthesis.target)
        state = moved
        control = synthesis.control
        lead.clear()
        finishMove(to: synthesis.target)
        restartLimiter(forBreathing: breathing)
    }

    /// Renders the next `count` output blocks into `output`: synthesized ahead by the limiter's delay (after its
    /// pre-roll, if one is due) and limited.
    private func renderBlocks(into output: UnsafeMutablePointer<Float>, count: Int) {
        if prerollBlocks > 0 {
            synthesizeAndLimit(count: prerollBlocks, output: nil)
            prerollBlocks = 0
        }
        synthesizeAndLimit(count: count, output: output)
    }

    /// Synthesizes the next `count` control blocks (from `state.blockStart`) into the limiter's input a chunk at a
    /// time and writes the output blocks each chunk completes to `output` (nil: limited and discarded, a pre-roll).
    ///
    /// The state is copied into locals once for all `count` blocks (a slice's worth, from a file render): a copy of
    /// the control sequencer retains every array inside the curves, and on two threads those retains of the same
    /// plan's objects contend for their cache lines, so a copy per chunk cost a render several per cent.
    private func synthesizeAndLimit(count: Int, output: UnsafeMutablePointer<Float>?) {
        let blockFrames = Self.controlBlockFrames
        let blockLength = Int64(blockFrames)
        let channels = channelCount
        let plan = self.plan
        let silenceStart = plan.curves.silenceStartFrame
        let waterLength = plan.waterLoop.length
        let rainLength = plan.rainLoop?.length ?? 1
        let constants = plan.constants
        let stereo = channels == 2
        let hasRain = plan.rainLoop != nil
        let guideScratch = self.guideScratch.base
        let ramp = self.ramp.base
        let tables = SynthKernel.Tables(
            ramp: ramp, triangle: triangle.base,
            waterDark: plan.waterLoop.primary.base, waterBright: plan.waterLoop.secondary?.base ?? plan.waterLoop.primary.base,
            rain: plan.rainLoop?.primary.base ?? plan.waterLoop.primary.base, guide: guideScratch, beat: beatScratch.base)
        let laneRender = SynthKernel.laneRender(constants: constants, tables: tables)
        let usesLanes = usesKernelLanes
        let midScratch = self.midScratch.base
        let padScratch = self.padScratch.base
        let addedVoices = self.addedVoices
        let hasBeat = plan.settings.beat != nil
        let beatMode = plan.beatMode
        let outputGain = plan.outputGain
        let bedVoice = self.bedVoice
        var liveGain = self.liveGain
        var guideScratchInUse = self.guideScratchInUse
        defer {
            self.guideScratchInUse = guideScratchInUse
            self.liveGain = liveGain
        }

        withMovingParts { state, control, lead in
            let limiter = self.limiter
            let chunkInput = limiter.chunkInput
            let samplesPerBlock = blockFrames * channels
            var done = 0
            while done < count {
                let chunkBlocks = min(count - done, limiter.chunkBlockCount)
                for blockIndex in 0..<chunkBlocks {
                    let out = chunkInput + blockIndex * samplesPerBlock
                    let blockStart = state.blockStart
                    let blockEnd = blockStart + blockLength
                    state.blockStart = blockEnd
                    if blockStart >= silenceStart {
                        out.update(repeating: 0, count: blockFrames * channels)
                        continue
                    }
                    let start = state.point
                    let (end, beatEndIncrement) = self.blockEnd(at: blockEnd, lead: &lead, control: &control, hasBeat: hasBeat)

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

                    if let endIncrement = beatEndIncrement {
                        block.beatPhase = Float(state.beatPhase)
                        block.beatIncrement = Ramp(from: state.beatIncrement, to: endIncrement, frameCount: blockFrames)
                    }
                    state.advanceOscillators(from: start, to: end, beatEndIncrement: beatEndIncrement, frames: blockFrames)

                    // The added voices: their samples into the guide scratch, their ducking onto the beds.
                    var guidePeak: Float = 0
                    let duckStart = state.bedFactor
                    if !addedVoices.isEmpty {
                        if guideScratchInUse { guideScratch.update(repeating: 0, count: blockFrames) }
                        let gain = Ramp(from: start.guideGain, to: end.guideGain, frameCount: blockFrames)
                        var bedFactor = 1.0
                        for voice in addedVoices {
                            guidePeak += voice.add(into: guideScratch, blockStart: blockStart, frameCount: blockFrames, gain: gain, offsets: ramp)
                            bedFactor = min(bedFactor, voice.bedFactor(at: blockEnd))
                        }
                        guideScratchInUse = guidePeak > 0
                        if bedFactor < 1 || state.bedFactor < 1 {
                            let duck = Ramp(from: state.bedFactor, to: bedFactor, frameCount: blockFrames)
                            block.darkGain = block.darkGain.scaled(by: duck, frameCount: blockFrames)
                            block.brightGain = block.brightGain.scaled(by: duck, frameCount: blockFrames)
                            block.rainGain = block.rainGain.scaled(by: duck, frameCount: blockFrames)
                        }
                        state.bedFactor = bedFactor
                    }

                    // The bed's frames for this block (nil while its gain is 0: nothing is added then).
                    var bedFrames: UnsafePointer<Float>?
                    var bedGain = Ramp.zero
                    if let bedVoice {
                        bedGain = Ramp(from: start.bedGain * duckStart, to: end.bedGain * state.bedFactor, frameCount: blockFrames)
                        let frames = bedVoice.nextFrames(frameCount: blockFrames)
                        if bedGain.largestMagnitude(frameCount: blockFrames) != 0 { bedFrames = frames }
                    }
                    // Each beat mode written out, so each call inlines its own loops (the plain one untouched). The
                    // lanes mix the bed in their last pass; Swift's loops leave it to the bed voice.
                    let lanes = usesLanes && beatMode == .none
                    switch beatMode {
                    case .none where lanes:
                        withUnsafePointer(to: laneRender) { laneRender in
                            SynthKernel.renderInLanes(block, render: laneRender, frameCount: blockFrames, output: out,
                                                      mid: midScratch, padCosine: padScratch, stereo: stereo, rain: hasRain,
                                                      bed: bedFrames, bedGain: bedGain)
                        }
                    case .none:
                        SynthKernel.render(block, constants: constants, tables: tables, frameCount: blockFrames, output: out,
                                           mid: midScratch, padCosine: padScratch, stereo: stereo, rain: hasRain, beat: .none)
                    case .binaural:
                        SynthKernel.render(block, constants: constants, tables: tables, frameCount: blockFrames, output: out,
                                           mid: midScratch, padCosine: padScratch, stereo: stereo, rain: hasRain, beat: .binaural)
                    case .isochronic:
                        SynthKernel.render(block, constants: constants, tables: tables, frameCount: blockFrames, output: out,
                                           mid: midScratch, padCosine: padScratch, stereo: stereo, rain: hasRain, beat: .isochronic)
                    }
                    if let bedVoice, let bedFrames, !lanes {
                        bedVoice.mix(bedFrames, into: out, frameCount: blockFrames, gain: bedGain, offsets: ramp)
                    }
                    // The loudness gain last, on everything the limiter sees.
                    if outputGain != 1 {
                        for index in 0..<(blockFrames * channels) { out[index] *= outputGain }
                    }
                    if !liveGain.isUnity {
                        liveGain.apply(to: out, frameCount: blockFrames, channelCount: channels)
                    }
                    if blockEnd > silenceStart {
                        let silentFrom = Int(silenceStart - blockStart)
                        (out + silentFrom * channels).update(repeating: 0, count: (blockFrames - silentFrom) * channels)
                    }
                    state.point = end
                }
                limiter.process(blockCount: chunkBlocks, output: output.map { $0 + done * samplesPerBlock })
                done += chunkBlocks
            }
        }
    }

    /// `position + frames` wrapped into a loop of `length` (frames ≤ length).
    private static func step(_ position: Int, by frames: Int, length: Int) -> Int {
        let next = position + frames
        return next >= length ? next - length : next
    }
}
