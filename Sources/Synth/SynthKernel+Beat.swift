/// The kernel's loops for a beat, apart from the plain ones so a render without a beat runs exactly the loops
/// it always ran.
extension SynthKernel {
    /// The first loop with a beat: the pad's cosine as always; for binaural the left tone's cosine (half a beat
    /// behind the centre phase) into `mid` and the right one's (half a beat ahead) into `tables.beat`; for
    /// isochronic the centre tone's cosine into `mid` and the pulse into `tables.beat`.
    @inline(__always)
    static func renderBeatCosines(
        _ block: Block, tables: Tables, frameCount: Int, mid: UnsafeMutablePointer<Float>, padCosine: UnsafeMutablePointer<Float>, binaural: Bool
    ) {
        let ramp = tables.ramp
        let triangle = tables.triangle
        let beat = tables.beat
        let tonePhase = block.tonePhase, toneIncrement = block.toneIncrement.value, toneIncrementSlope = block.toneIncrement.slope
        let trailPhase = block.trailPhase, trailIncrement = block.trailIncrement.value, trailIncrementSlope = block.trailIncrement.slope
        let beatPhase = block.beatPhase, beatIncrement = block.beatIncrement.value, beatIncrementSlope = block.beatIncrement.slope
        if binaural {
            // Each ear's frequency is the centre's ∓ half the beat, so its phase is the centre's ∓ the half-beat's
            // phase (the block's `beatPhase` and increment are the half-beat's for binaural).
            for n in 0..<frameCount {
                let offset = ramp[n]
                let glide = triangle[n]
                let centre = tonePhase + offset * toneIncrement + glide * toneIncrementSlope
                let halfBeat = beatPhase + offset * beatIncrement + glide * beatIncrementSlope
                mid[n] = cosine(turns: centre - halfBeat)
                beat[n] = cosine(turns: centre + halfBeat)
                padCosine[n] = cosine(turns: trailPhase + offset * trailIncrement + glide * trailIncrementSlope)
            }
        } else {
            for n in 0..<frameCount {
                let offset = ramp[n]
                let glide = triangle[n]
                mid[n] = cosine(turns: tonePhase + offset * toneIncrement + glide * toneIncrementSlope)
                beat[n] = Beat.pulse(cosine: cosine(turns: beatPhase + offset * beatIncrement + glide * beatIncrementSlope))
                padCosine[n] = cosine(turns: trailPhase + offset * trailIncrement + glide * trailIncrementSlope)
            }
        }
    }

    /// The stereo output with a binaural tone: as the plain stereo loops, with the tone's half difference
    /// (`tables.beat`, right minus left) taken from the side, so the left ear hears the left tone and the right
    /// ear the right one.
    @inline(__always)
    static func renderBinauralOutput(
        _ water: WaterMix, tables: Tables, frameCount: Int, output: UnsafeMutablePointer<Float>, mid: UnsafeMutablePointer<Float>, rain: Bool
    ) {
        let toneSide = UnsafePointer(tables.beat)
        if rain {
            for n in 0..<frameCount { water.stereo(n, mid: mid[n], rain: true, less: toneSide[n], output: output) }
        } else {
            for n in 0..<frameCount { water.stereo(n, mid: mid[n], rain: false, less: toneSide[n], output: output) }
        }
    }
}
