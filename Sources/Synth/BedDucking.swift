/// How far the beds dip under clips: a smoothstep down to `depth` starting one control block after a clip's
/// first frame (so the renderer's per-block interpolation never dips before the boundary), held while it
/// sounds, a smoothstep back over `releaseFrames` after it. Queried with non-decreasing frames.
struct BedDucking {
    /// The dip's depth and timing.
    struct Shape {
        /// The beds' factor at full dip (0…1).
        var depth: Double
        var delayFrames: Int64
        var attackFrames: Int64
        var releaseFrames: Int64
    }

    private let shape: Shape
    /// Sounding spans (start, end), sorted by start.
    private let spans: [(start: Int64, end: Int64)]
    /// The first span that may still matter.
    private var first = 0

    init(shape: Shape, spans: [(Int64, Int64)]) {
        self.shape = shape
        self.spans = spans.map { (start: $0.0, end: $0.1) }
    }

    /// Back to the first span, so the next frame asked for may be any: the spans skipped at a frame are the
    /// longest run of finished ones from the first, the same whichever frames were asked before.
    mutating func rewind() {
        first = 0
    }

    /// The beds' factor at `frame`: the deepest dip of any span around it.
    mutating func factor(at frame: Int64) -> Double {
        while first < spans.count && spans[first].end + shape.releaseFrames <= frame { first += 1 }
        var dip = 0.0
        var index = first
        while index < spans.count && spans[index].start + shape.delayFrames < frame {
            let span = spans[index]
            let attack = ControlCurves.smoothstep(Double(frame - span.start - shape.delayFrames) / Double(max(1, shape.attackFrames)))
            let release = frame <= span.end ? 1 : 1 - ControlCurves.smoothstep(Double(frame - span.end) / Double(max(1, shape.releaseFrames)))
            dip = max(dip, min(attack, release))
            index += 1
        }
        return 1 - (1 - shape.depth) * dip
    }
}
