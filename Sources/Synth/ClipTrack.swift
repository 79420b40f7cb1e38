/// A voice of tables started on given frames: chimes, ticks, spoken phrases, cue-pack clips. Each entry reads
/// its table from its start frame, optionally cut at a stop frame, entering and leaving by `ClipEdgeFade` (a cut
/// by its own fade that ends on the stop frame), and may duck the beds while it sounds (beginning one control
/// block after its start, so nothing dips before it).
/// Keeps the window of entries that can reach the next block, so each block looks at a few entries at most.
final class ClipTrack: MixVoice {
    /// One placed sound.
    struct Entry {
        var startFrame: Int64
        var tableIndex: Int
        /// The frame by which it is silent (`Int64.max`: plays to the table's end).
        var stopFrame: Int64 = .max
        /// Frames of the raised-cosine fade that ends on `stopFrame`.
        var fadeFrames: Int64 = 1
    }

    private let tables: [FloatBuffer]
    private let peaks: [Float]
    private let entries: [Entry]
    /// Where each entry falls silent: min(start + table length, stop).
    private let endFrames: [Int64]
    /// Each entry's fade in and fade out.
    private let edges: [ClipEdgeFade.Edges]
    private var duck: BedDucking?
    /// The entries that may sound in the next block: `first..<end`.
    private var first = 0
    private var end = 0

    /// `entries` sorted by start frame, at `sampleRate`; `duck` (if any) dips the beds while each entry sounds.
    init(tables: [FloatBuffer], entries: [Entry], duck: BedDucking.Shape?, sampleRate: Int) {
        self.tables = tables
        peaks = tables.map(\.peak)
        self.entries = entries
        let endFrames = entries.map { min($0.startFrame + Int64(tables[$0.tableIndex].count), $0.stopFrame) }
        self.endFrames = endFrames
        let fade = ClipEdgeFade(sampleRate: sampleRate)
        edges = zip(entries, endFrames).map { entry, end in
            let tableEnd = entry.startFrame + Int64(tables[entry.tableIndex].count)
            return fade.edges(startFrame: entry.startFrame, endFrame: end, cutFrames: entry.stopFrame < tableEnd ? entry.fadeFrames : nil)
        }
        self.duck = duck.flatMap { shape in
            entries.isEmpty ? nil : BedDucking(shape: shape, spans: zip(entries, endFrames).map { ($0.startFrame, $1) })
        }
    }

    /// Whether the track places nothing.
    var isEmpty: Bool { entries.isEmpty }

    func add(into centre: UnsafeMutablePointer<Float>, blockStart: Int64, frameCount: Int, gain: Ramp, offsets: UnsafePointer<Float>) -> Float {
        let blockEnd = blockStart + Int64(frameCount)
        while end < entries.count && entries[end].startFrame < blockEnd { end += 1 }
        while first < end && endFrames[first] <= blockStart { first += 1 }
        var peak: Float = 0
        guard first < end else { return 0 }
        let gainBound = gain.largestMagnitude(frameCount: frameCount)
        for index in first..<end {
            let entry = entries[index]
            let from = max(blockStart, entry.startFrame)
            let to = min(blockEnd, endFrames[index])
            guard from < to else { continue }
            let table = UnsafePointer(tables[entry.tableIndex].base) + Int(from - entry.startFrame)
            let offset = Int(from - blockStart)
            let target = centre + offset
            let ramp = offsets + offset
            let count = Int(to - from)
            let edge = edges[index]
            if edge.isUnfaded(from: from, to: to) {
                for n in 0..<count { target[n] += table[n] * gain.at(ramp[n]) }
            } else {
                for n in 0..<count { target[n] += table[n] * gain.at(ramp[n]) * edge.gain(at: from + Int64(n)) }
            }
            peak += peaks[entry.tableIndex] * gainBound
        }
        return peak
    }

    func bedFactor(at frame: Int64) -> Double { duck?.factor(at: frame) ?? 1 }

    func rewind() {
        // The window at a block is a function of the block (the entries started before its end, less the longest
        // run of finished ones from the first), so from the first entry the next block finds the same window.
        first = 0
        end = 0
        duck?.rewind()
    }
}
