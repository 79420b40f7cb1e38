import NagiMath

/// The short raised-cosine fade every placed clip (word, counted number, chime, tick, bell, cue-pack sample) enters
/// and leaves the mix by, applied where `ClipTrack` and `FramingTrack` place it: a clip trimmed to its first sound
/// (a word after `SilenceTrim`, a user's sample) would otherwise step from silence to its first sample, a click in
/// headphones. Pure: a function of the frames since the clip's start and until its end.
struct ClipEdgeFade: Sendable {
    /// The fade's length, seconds: a word's first 0.25 ms stays under 1 % of its level, and its attack (tens of
    /// milliseconds) is kept.
    static let seconds = 0.005

    /// Frames of the fade in and of the fade out at a clip's natural end.
    let frameCount: Int64

    /// The fade at `sampleRate`, at least one frame.
    init(sampleRate: Int) {
        frameCount = max(1, Int64((Self.seconds * Double(sampleRate)).rounded()))
    }

    /// The rising half of a raised cosine: frame `index` of `length` (0 ..< length), from near 0 to near 1,
    /// symmetric, so the same values read backwards make the fade out.
    @inline(__always)
    static func rising(_ index: Int64, of length: Int64) -> Float {
        Float(0.5 - 0.5 * cos(Double.pi * (Double(index) + 0.5) / Double(length)))
    }

    /// The spans of one placed clip that fade: the first `inFrames` frames after its start and the last
    /// `outFrames` before its end (a cut's own fade, or this fade at the clip's natural end), each at most
    /// half the clip so a very short clip still rises before it falls.
    struct Edges: Sendable {
        var startFrame: Int64
        var endFrame: Int64
        var inFrames: Int64
        var outFrames: Int64

        /// Whether `from ..< to` lies between the fades, where the clip plays unchanged.
        @inline(__always)
        func isUnfaded(from: Int64, to: Int64) -> Bool {
            from >= startFrame + inFrames && to <= endFrame - outFrames
        }

        /// The clip's gain at `frame` (inside `startFrame ..< endFrame`).
        @inline(__always)
        func gain(at frame: Int64) -> Float {
            var gain: Float = 1
            let sinceStart = frame - startFrame
            if sinceStart < inFrames { gain = ClipEdgeFade.rising(sinceStart, of: inFrames) }
            let untilEnd = endFrame - frame
            if untilEnd <= outFrames { gain *= ClipEdgeFade.rising(untilEnd - 1, of: outFrames) }
            return gain
        }
    }

    /// The edges of a clip placed on `startFrame` that falls silent on `endFrame`; `cutFrames` is the fade of a
    /// cut that ends it early (nil: it plays to its table's end and fades by this fade).
    func edges(startFrame: Int64, endFrame: Int64, cutFrames: Int64?) -> Edges {
        let length = max(1, endFrame - startFrame)
        let inFrames = max(1, min(frameCount, length / 2))
        let outFrames = max(1, min(cutFrames ?? frameCount, length - inFrames))
        return Edges(startFrame: startFrame, endFrame: endFrame, inFrames: inFrames, outFrames: outFrames)
    }
}
