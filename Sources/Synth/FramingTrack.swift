/// The sounds of the lead-in and the ending (`SessionFraming`): the guide alone, at the guide's gain where the
/// breathing begins (lead-in) or ends (ending), as a pure function of the output frame, so any block size, seek or
/// slice gives the same samples. No limiter runs here: the gains are scaled once, at compile time, so the most the
/// overlapping sounds can sum to stays `headroomDecibels` under the output's ceiling.
struct FramingTrack: Sendable {
    /// One placed sound.
    struct Entry {
        var startFrame: Int64
        var endFrame: Int64
        var tableIndex: Int
        /// The guide gain at its place before the output stage's gain.
        var baseGain: Float
        /// What the samples are multiplied by (the base gain, the loudness gain and the ceiling's scale).
        var gain: Float = 0
    }

    /// The margin under the ceiling for what the estimate of the peaks between samples misses (it reads under
    /// ffmpeg's by up to 0.4 dB at the lowest rates), dB.
    static let headroomDecibels = 0.5

    private let tables: [FloatBuffer]
    /// Each table's true peak (`TruePeakLimiter.truePeak`): the sounds pass no limiter, so their gain bounds the
    /// peaks between samples too (a sample-peak bound let a bell at 16 kHz read 0.66 dB over it).
    private let truePeaks: [Float]
    private let entries: [Entry]
    /// Each entry's fade in and out (`ClipEdgeFade`).
    private let edges: [ClipEdgeFade.Edges]

    /// A track that places nothing.
    static let empty = FramingTrack(tables: [], entries: [], sampleRate: 48_000)

    /// `entries` ordered by start frame, from `tables` at `sampleRate`; their `gain` is set by
    /// `bound(outputGain:ceiling:)`.
    init(tables: [FloatBuffer], entries: [Entry], sampleRate: Int) {
        self.tables = tables
        self.entries = entries
        truePeaks = tables.map { TruePeakLimiter.truePeak(of: $0, sampleRate: sampleRate) }
        let fade = ClipEdgeFade(sampleRate: sampleRate)
        edges = entries.map { fade.edges(startFrame: $0.startFrame, endFrame: $0.endFrame, cutFrames: nil) }
    }

    private init(tables: [FloatBuffer], truePeaks: [Float], entries: [Entry], edges: [ClipEdgeFade.Edges]) {
        self.tables = tables
        self.truePeaks = truePeaks
        self.entries = entries
        self.edges = edges
    }

    /// Whether the track places nothing.
    var isEmpty: Bool { entries.isEmpty }

    /// This track with each entry's gain its base gain × `outputGain`, scaled down (all alike) when the sounds
    /// that overlap could sum past `ceiling` less the headroom.
    func bound(outputGain: Float, ceiling: Float) -> FramingTrack {
        var entries = self.entries
        let peaks = entries.map { truePeaks[$0.tableIndex] }
        var loudest: Float = 0
        for entry in entries {
            var sum: Float = 0
            for (other, otherEntry) in entries.enumerated() where otherEntry.startFrame < entry.endFrame && entry.startFrame < otherEntry.endFrame {
                sum += peaks[other] * abs(otherEntry.baseGain * outputGain)
            }
            loudest = max(loudest, sum)
        }
        let allowed = ceiling * Float(Decibels.gain(-Self.headroomDecibels))
        let scale = loudest > allowed ? allowed / loudest : 1
        for index in entries.indices { entries[index].gain = entries[index].baseGain * outputGain * scale }
        return FramingTrack(tables: tables, truePeaks: truePeaks, entries: entries, edges: edges)
    }

    /// Writes the output frames `startFrame ..< startFrame + frameCount` (interleaved, every channel alike) into
    /// `output`: the sounds placed there, silence elsewhere.
    func render(into output: UnsafeMutablePointer<Float>, startFrame: Int64, frameCount: Int, channelCount: Int) {
        output.update(repeating: 0, count: frameCount * channelCount)
        let endFrame = startFrame + Int64(frameCount)
        for (index, entry) in entries.enumerated() where entry.startFrame < endFrame && startFrame < entry.endFrame {
            let from = max(startFrame, entry.startFrame)
            let to = min(endFrame, entry.endFrame)
            let table = UnsafePointer(tables[entry.tableIndex].base) + Int(from - entry.startFrame)
            let target = output + Int(from - startFrame) * channelCount
            let gain = entry.gain
            let edge = edges[index]
            let unfaded = edge.isUnfaded(from: from, to: to)
            for n in 0..<Int(to - from) {
                let sample = table[n] * (unfaded ? gain : gain * edge.gain(at: from + Int64(n)))
                for channel in 0..<channelCount { target[n * channelCount + channel] += sample }
            }
        }
    }
}
