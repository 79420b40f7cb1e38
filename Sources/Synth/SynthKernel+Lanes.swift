import CNagiSynthKernel

/// The plain kernel (no beat) in AVX's eight Float lanes, where the machine has them: the same frames as
/// `render`'s loops to the bit (each frame's arithmetic is theirs, in their order, without fused multiply-adds),
/// in about half the time. Beats keep Swift's loops; so does a machine without AVX.
extension SynthKernel {
    /// Whether `renderInLanes` runs on this machine (an x86_64 with AVX, saved by the operating system).
    static let lanesAvailable = nagi_synth_lanes_available() != 0

    /// A render's constants and tables as the lane kernel reads them; made once a call of the renderer, not per block.
    static func laneRender(constants: Constants, tables: Tables) -> nagi_synth_render {
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
        _ block: Block, render: UnsafePointer<nagi_synth_render>, frameCount: Int,
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
}

private extension Ramp {
    /// The ramp as the lane kernel takes it.
    var lane: nagi_synth_ramp { nagi_synth_ramp(value: value, slope: slope) }
}
