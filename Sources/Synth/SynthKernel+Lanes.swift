#if canImport(CNagiSynthKernel)
import CNagiSynthKernel
#endif

/// The plain kernel (no beat) in AVX's eight Float lanes, where the machine has them: the same frames as
/// `render`'s loops to the bit (each frame's arithmetic is theirs, in their order, without fused multiply-adds),
/// in about half the time. Beats keep Swift's loops; so does a machine without AVX, and a platform where Synth
/// builds without its C kernel (Package.swift links it on Linux only): this file is its one user.
extension SynthKernel {
#if canImport(CNagiSynthKernel)
    /// Taps per interpolated point of the true-peak limiter (frames n − 5 … n + 6 for the points after frame n).
    static let interpolationTapCount = Int(NAGI_SYNTH_INTERPOLATION_TAPS)

    /// A render's constants and tables as the lane kernel reads them.
    typealias LaneRender = nagi_synth_render

    /// Whether `renderInLanes` runs on this machine (an x86_64 with AVX, saved by the operating system).
    static let lanesAvailable = nagi_synth_lanes_available() != 0

    /// A render's constants and tables as the lane kernel reads them; made once a call of the renderer, not per block.
    static func laneRender(constants: Constants, tables: Tables) -> LaneRender {
        nagi_synth_render(
            water: constants.water, sky_difference: constants.skyDifference, trail: constants.trail,
            water_width: constants.waterWidth, rain_width: constants.rainWidth,
            ramp: tables.ramp, triangle: tables.triangle, water_dark: tables.waterDark, water_bright: tables.waterBright,
            rain: tables.rain, guide: tables.guide)
    }

    /// `render(…, beat: .none)` in AVX's lanes, then (unless `bed` is nil) what `BedVoice.mix` adds of the bed's
    /// frames `bed` at `bedGain`, in the same pass. Only when `lanesAvailable`: elsewhere the C function traps.
    @inline(__always)
    static func renderInLanes(
        _ block: Block, render: UnsafePointer<LaneRender>, frameCount: Int,
        output: UnsafeMutablePointer<Float>, mid: UnsafeMutablePointer<Float>, padCosine: UnsafeMutablePointer<Float>,
        stereo: Bool, rain: Bool, bed: UnsafePointer<Float>? = nil, bedGain: Ramp = .zero
    ) {
        var laneBlock = nagi_synth_block(
            tone_phase: block.tonePhase, tone_increment: block.toneIncrement.lane, sky: block.sky.lane,
            tone_gain: block.toneGain.lane, trail_phase: block.trailPhase, trail_increment: block.trailIncrement.lane,
            trail_gain: block.trailGain.lane, dark_gain: block.darkGain.lane, bright_gain: block.brightGain.lane,
            rain_gain: block.rainGain.lane, water_mid: block.waterMid, water_side: block.waterSide,
            rain_mid: block.rainMid, rain_side: block.rainSide)
        nagi_synth_render_lanes(&laneBlock, render, frameCount, output, mid, padCosine, stereo ? 1 : 0, rain ? 1 : 0, bed, bedGain.lane)
    }

    /// `TruePeakLimiter`'s interpolation of one run in AVX's lanes: each of the `count` interleaved samples from
    /// `samples` (of `channels` channels) raised in `magnitudes` to the largest interpolated point of `phases`
    /// phases of `interpolationTapCount` taps. Only when `lanesAvailable` and `count` is a multiple of 8.
    @inline(__always)
    static func interpolationPeaksInLanes(
        _ samples: UnsafePointer<Float>, count: Int, channels: Int, taps: UnsafePointer<Float>, phases: Int,
        magnitudes: UnsafeMutablePointer<Float>
    ) {
        nagi_synth_interpolation_peaks(samples, count, channels, taps, phases, magnitudes)
    }
#else
    /// Taps per interpolated point of the true-peak limiter, as the C kernel's `NAGI_SYNTH_INTERPOLATION_TAPS`.
    static let interpolationTapCount = 12

    /// Nothing: without the C kernel there are no lanes to give constants to.
    struct LaneRender {}

    /// Never: Synth was built without its C kernel.
    static let lanesAvailable = false

    /// Nothing to make without the C kernel.
    static func laneRender(constants: Constants, tables: Tables) -> LaneRender { LaneRender() }

    /// Never called (`lanesAvailable` is false): traps, as the C kernel does on a machine without AVX.
    static func renderInLanes(
        _ block: Block, render: UnsafePointer<LaneRender>, frameCount: Int,
        output: UnsafeMutablePointer<Float>, mid: UnsafeMutablePointer<Float>, padCosine: UnsafeMutablePointer<Float>,
        stereo: Bool, rain: Bool, bed: UnsafePointer<Float>? = nil, bedGain: Ramp = .zero
    ) {
        preconditionFailure("Synth was built without its C kernel: no AVX lanes")
    }

    /// Never called (`lanesAvailable` is false): traps, as the C kernel does on a machine without AVX.
    static func interpolationPeaksInLanes(
        _ samples: UnsafePointer<Float>, count: Int, channels: Int, taps: UnsafePointer<Float>, phases: Int,
        magnitudes: UnsafeMutablePointer<Float>
    ) {
        preconditionFailure("Synth was built without its C kernel: no AVX lanes")
    }
#endif
}

#if canImport(CNagiSynthKernel)
private extension Ramp {
    /// The ramp as the lane kernel takes it.
    var lane: nagi_synth_ramp { nagi_synth_ramp(value: value, slope: slope) }
}
#endif
