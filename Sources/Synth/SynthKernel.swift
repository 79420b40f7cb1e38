/// The per-sample DSP of one control block.
///
/// Every input is a value or a raw pointer copied in by the caller: no class, no array, no protocol inside
/// the loop. Parameters arrive as `Ramp`s (a start value and a per-frame slope: linear interpolation across the
/// block), oscillator phases as a Float start re-anchored from Double once per block, so nothing steps and
/// no float time runs on.
enum SynthKernel {
    /// Constants of one render: the shaping polynomials and the stereo widths.
    struct Constants {
        /// The dark ("water") tone polynomial in cos θ, c₀…c₄.
        var water: (Float, Float, Float, Float, Float)
        /// Sky minus water polynomial, c₀…c₄ (the timbre crossfade adds sky·this).
        var skyDifference: (Float, Float, Float, Float, Float)
        /// The pad's polynomial, c₀…c₃.
        var trail: (Float, Float, Float, Float)
        /// Share of the water's side signal in each channel.
        var waterWidth: Float
        /// Share of the rain's side signal in each channel.
        var rainWidth: Float
    }

    /// One block's parameters as ramps (value at the first frame, change per frame) and where its table
    /// reads start.
    struct Block {
        /// Tone phase in cycles at the block's first frame, in [0, 1).
        var tonePhase: Float = 0
        /// Tone phase increment, cycles per frame (a linear glide integrates to n(n−1)/2 of its slope).
        var toneIncrement = Ramp.zero
        /// The sky timbre's share.
        var sky = Ramp.zero
        var toneGain = Ramp.zero
        var trailPhase: Float = 0
        var trailIncrement = Ramp.zero
        var trailGain = Ramp.zero
        /// Gains of the dark and bright water loops.
        var darkGain = Ramp.zero
        var brightGain = Ramp.zero
        var rainGain = Ramp.zero
        /// Water loop read positions for the mid and side signals.
        var waterMid = 0
        var waterSide = 0
        /// Rain loop read positions.
        var rainMid = 0
        var rainSide = 0
        /// The beat's phase in cycles at the block's first frame, in [0, 1), and its increment (cycles per frame):
        /// the half-beat's for binaural, the beat's for isochronic.
        var beatPhase: Float = 0
        var beatIncrement = Ramp.zero

        /// The parameters from the control point `start` (the block's first frame) to `end` (the next
        /// block's); phases and read positions are left for the caller.
        ///
        /// Inlined so the block's length is a constant where it is called: the eight slopes' divisions by it
        /// then become exact multiplications by its reciprocal (a power of two). Called, it divided, and waiting
        /// for the divisions was most of its time, 5 % of a render's.
        @inline(__always)
        init(from start: ControlSequencer.Point, to end: ControlSequencer.Point, frames: Int) {
            toneIncrement = Ramp(from: start.toneIncrement, to: end.toneIncrement, frameCount: frames)
            sky = Ramp(from: start.sky, to: end.sky, frameCount: frames)
            toneGain = Ramp(from: start.toneGain, to: end.toneGain, frameCount: frames)
            trailIncrement = Ramp(from: start.trailIncrement, to: end.trailIncrement, frameCount: frames)
            trailGain = Ramp(from: start.trailGain, to: end.trailGain, frameCount: frames)
            darkGain = Ramp(from: start.darkGain, to: end.darkGain, frameCount: frames)
            brightGain = Ramp(from: start.brightGain, to: end.brightGain, frameCount: frames)
            rainGain = Ramp(from: start.rainGain, to: end.rainGain, frameCount: frames)
        }
    }

    /// Read-only tables of one render.
    struct Tables {
        /// 0, 1, 2, … (frame offset within the block).
        var ramp: UnsafePointer<Float>
        /// n(n−1)/2 (how a linear glide accumulates into phase).
        var triangle: UnsafePointer<Float>
        var waterDark: UnsafePointer<Float>
        var waterBright: UnsafePointer<Float>
        var rain: UnsafePointer<Float>
        /// This block's guide samples (chimes, ticks, clips), already scaled (zeros when none sounds).
        var guide: UnsafePointer<Float>
        /// Scratch for a beat (frameCount Floats): the right tone's cosine then half the right-minus-left tone
        /// (binaural), or the pulse (isochronic). Untouched without a beat.
        var beat: UnsafeMutablePointer<Float>
    }

    /// What the kernel does with the beat: nothing, split the tone between the ears, or pulse it.
    enum BeatMode {
        case none, binaural, isochronic
    }

    /// cos 2πx for any x with |x| < 2²², by folding to a quarter wave and an odd degree-5 minimax
    /// polynomial: error below 6.8·10⁻⁵ (−83 dB, only odd harmonics of a tone that carries its own at −14 to
    /// −30 dB). No table lookups (no gathers on x86-64 baseline), no libm call.
    @inline(__always)
    static func cosine(turns x: Float) -> Float {
        let roundingMagic: Float = 12_582_912  // 1.5·2²³: adding it rounds to an integer
        let fraction = x - ((x + roundingMagic) - roundingMagic)  // [−0.5, 0.5]
        let y = 0.25 - abs(fraction)  // cos 2πx = sin 2πy, y in [−0.25, 0.25]
        let z = y * y
        return ((73.585_73 * z - 41.095_257) * z + 6.281_280_2) * y
    }

    /// Renders `frameCount` frames into `output` (interleaved when stereo), using `mid` and `padCosine`
    /// (frameCount Floats each) as scratch. Written as plain loops over pointers that LLVM's loop vectorizer turns into packed SSE
    /// (hand-written SIMD4 code was partly scalarised by the SLP pass).
    @inline(__always)
    static func render(
        _ block: Block, constants: Constants, tables: Tables, frameCount: Int,
        output: UnsafeMutablePointer<Float>, mid: UnsafeMutablePointer<Float>, padCosine: UnsafeMutablePointer<Float>,
        stereo: Bool, rain: Bool, beat: BeatMode = .none
    ) {
        let ramp = tables.ramp
        let triangle = tables.triangle
        let guide = tables.guide
        let shaping = Shaping(constants)
        // Ramps unpacked into scalar locals: the vectorizer sees plain loop invariants.
        let tonePhase = block.tonePhase, toneIncrement = block.toneIncrement.value, toneIncrementSlope = block.toneIncrement.slope
        let sky = block.sky.value, skySlope = block.sky.slope, toneGain = block.toneGain.value, toneGainSlope = block.toneGain.slope
        let trailPhase = block.trailPhase, trailIncrement = block.trailIncrement.value, trailIncrementSlope = block.trailIncrement.slope
        let trailGain = block.trailGain.value, trailGainSlope = block.trailGain.slope

        // The two cosines first: short dependency chains let many frames overlap in the core.
        switch beat {
        case .none:
            for n in 0..<frameCount {
                let offset = ramp[n]
                let glide = triangle[n]
                mid[n] = cosine(turns: tonePhase + offset * toneIncrement + glide * toneIncrementSlope)
                padCosine[n] = cosine(turns: trailPhase + offset * trailIncrement + glide * trailIncrementSlope)
            }
        case .binaural, .isochronic:
            renderBeatCosines(block, tables: tables, frameCount: frameCount, mid: mid, padCosine: padCosine, binaural: beat == .binaural)
        }
        // Tone, pad and guide: the mono part. The harmonics come from the shaping polynomials (Estrin's
        // scheme: shallow chains), the timbre crossfades from water to sky.
        switch beat {
        case .none:
            for n in 0..<frameCount {
                let offset = ramp[n]
                let tone = shaping.tone(cosine: mid[n], sky: sky + offset * skySlope) * (toneGain + offset * toneGainSlope)
                mid[n] = tone + shaping.pad(cosine: padCosine[n]) * (trailGain + offset * trailGainSlope) + guide[n]
            }
        case .isochronic:
            let pulse = tables.beat
            for n in 0..<frameCount {
                let offset = ramp[n]
                let tone = shaping.tone(cosine: mid[n], sky: sky + offset * skySlope) * ((toneGain + offset * toneGainSlope) * pulse[n])
                mid[n] = tone + shaping.pad(cosine: padCosine[n]) * (trailGain + offset * trailGainSlope) + guide[n]
            }
        case .binaural:
            // The centre gets the two ears' mean; `beat` keeps half their difference (right minus left).
            let right = tables.beat
            for n in 0..<frameCount {
                let offset = ramp[n]
                let skyShare = sky + offset * skySlope
                let left = shaping.tone(cosine: mid[n], sky: skyShare)
                let rightTone = shaping.tone(cosine: right[n], sky: skyShare)
                let halfGain = 0.5 * (toneGain + offset * toneGainSlope)
                let pad = shaping.pad(cosine: padCosine[n]) * (trailGain + offset * trailGainSlope)
                mid[n] = (left + rightTone) * halfGain + pad + guide[n]
                right[n] = (rightTone - left) * halfGain
            }
        }

        // Water (and rain): the dark and bright loops crossfaded by their gains; side signals for stereo.
        let water = WaterMix(block, tables: tables, constants: constants)
        if stereo && beat == .binaural {
            renderBinauralOutput(water, tables: tables, frameCount: frameCount, output: output, mid: mid, rain: rain)
            return
        }
        switch (stereo, rain) {
        case (true, false):
            for n in 0..<frameCount { water.stereo(n, mid: mid[n], rain: false, output: output) }
        case (true, true):
            for n in 0..<frameCount { water.stereo(n, mid: mid[n], rain: true, output: output) }
        case (false, false):
            for n in 0..<frameCount { output[n] = water.frame(n, mid: mid[n], rain: false).centre }
        case (false, true):
            for n in 0..<frameCount { output[n] = water.frame(n, mid: mid[n], rain: true).centre }
        }
    }

    /// The shaping polynomials as scalars, each evaluated by Estrin's scheme (shallow chains) inside the loops
    /// that inline it.
    struct Shaping {
        let w0, w1, w2, w3, w4: Float
        let d0, d1, d2, d3, d4: Float
        let t0, t1, t2, t3: Float

        @inline(__always)
        init(_ constants: Constants) {
            (w0, w1, w2, w3, w4) = constants.water
            (d0, d1, d2, d3, d4) = constants.skyDifference
            (t0, t1, t2, t3) = constants.trail
        }

        /// The tone from its cosine `c`: the water polynomial plus `sky` times the sky's difference from it (the
        /// timbre crossfade), before its gain.
        @inline(__always)
        func tone(cosine c: Float, sky: Float) -> Float {
            let c2 = c * c
            let water = (w0 + w1 * c) + c2 * ((w2 + w3 * c) + c2 * w4)
            let skyPart = (d0 + d1 * c) + c2 * ((d2 + d3 * c) + c2 * d4)
            return water + sky * skyPart
        }

        /// The pad from its cosine `p`, before its gain.
        @inline(__always)
        func pad(cosine p: Float) -> Float {
            (t0 + t1 * p) + (p * p) * (t2 + t3 * p)
        }
    }

    /// One block's water (and rain) reads and gains: each output frame is the mono part `mid` plus the dark and
    /// bright loops crossfaded by their gains (and the rain), and, in stereo, a side signal from the loops' other
    /// read places scaled by their widths.
    struct WaterMix {
        let ramp, darkMid, brightMid, darkSide, brightSide, rainMid, rainSide: UnsafePointer<Float>
        let darkGain, darkGainSlope, brightGain, brightGainSlope, rainGain, rainGainSlope: Float
        let waterWidth, rainWidth: Float

        @inline(__always)
        init(_ block: Block, tables: Tables, constants: Constants) {
            ramp = tables.ramp
            darkMid = tables.waterDark + block.waterMid
            brightMid = tables.waterBright + block.waterMid
            darkSide = tables.waterDark + block.waterSide
            brightSide = tables.waterBright + block.waterSide
            rainMid = tables.rain + block.rainMid
            rainSide = tables.rain + block.rainSide
            (darkGain, darkGainSlope) = (block.darkGain.value, block.darkGain.slope)
            (brightGain, brightGainSlope) = (block.brightGain.value, block.brightGain.slope)
            (rainGain, rainGainSlope) = (block.rainGain.value, block.rainGain.slope)
            (waterWidth, rainWidth) = (constants.waterWidth, constants.rainWidth)
        }

        /// Frame `n`'s centre (`mid` with the loops added) and side signal, with the rain or without.
        @inline(__always)
        func frame(_ n: Int, mid: Float, rain: Bool) -> (centre: Float, side: Float) {
            let offset = ramp[n]
            let dark = darkGain + offset * darkGainSlope
            let bright = brightGain + offset * brightGainSlope
            let centre = mid + darkMid[n] * dark + brightMid[n] * bright
            let side = (darkSide[n] * dark + brightSide[n] * bright) * waterWidth
            guard rain else { return (centre, side) }
            let wet = rainGain + offset * rainGainSlope
            return (centre + rainMid[n] * wet, side + rainSide[n] * (wet * rainWidth))
        }

        /// Writes frame `n` into interleaved stereo `output`: centre plus and minus the side, less `toneSide`
        /// (a binaural tone's half difference; the subtraction of the default 0 folds away and changes no bit).
        @inline(__always)
        func stereo(_ n: Int, mid: Float, rain: Bool, less toneSide: Float = 0, output: UnsafeMutablePointer<Float>) {
            let (centre, waterSide) = frame(n, mid: mid, rain: rain)
            let side = waterSide - toneSide
            output[2 * n] = centre + side
            output[2 * n + 1] = centre - side
        }
    }
}
