/// A voice the renderer adds to the mix's centre, block by block: one type brings its control values, its
/// block kernel and its peak bound, so a new sound (ticks, speech, a user's clips) needs no edit elsewhere.
/// Called once per control block, never per frame; the beds and tones stay in the fused `SynthKernel`.
protocol MixVoice: AnyObject {
    /// Adds the voice's samples for `blockStart..<blockStart + frameCount` into `centre`, scaled by `gain`
    /// (`offsets` holds 0, 1, 2, …), and returns a bound of the largest magnitude added (0: nothing added).
    func add(into centre: UnsafeMutablePointer<Float>, blockStart: Int64, frameCount: Int, gain: Ramp, offsets: UnsafePointer<Float>) -> Float

    /// The factor this voice asks of the beds at `frame` (1: none; below 1 ducks them under the voice).
    func bedFactor(at frame: Int64) -> Double

    /// Forgets where the voice has got to, so the next calls may be for any frame (a seek, forward or back);
    /// what a voice adds and asks must depend on the frames alone, not on the calls before.
    func rewind()
}
