import LiveAudio

/// The gain each output frame carries, recovered by dividing it by the source frame of the same index.
///
/// If output frame j really is source frame j times one gain, both channels give the same ratio; a frame skipped,
/// repeated or out of place gives two different ratios (channel 1 of `IndexedFrameSource` jumps between frames).
struct GainTrace {
    let gains: [Double]
    /// The first output frame whose channels disagree about the gain, or whose gain lies outside [0, 1]:
    /// a frame that is not the source frame of the same index.
    let firstMisplacedFrame: Int?
    private let output: [Float]
    private let channelCount: Int
    private let firstFrame: Int64

    init(output: [Float], channelCount: Int, firstFrame: Int64 = 0) {
        precondition(channelCount == 2)
        self.output = output
        self.channelCount = channelCount
        self.firstFrame = firstFrame
        var gains: [Double] = []
        var firstMisplaced: Int?
        for frame in 0..<(output.count / channelCount) {
            let sourceFrame = firstFrame + Int64(frame)
            let gain0 = Double(output[frame * 2]) / Double(IndexedFrameSource.sample(frame: sourceFrame, channel: 0))
            let gain1 = Double(output[frame * 2 + 1]) / Double(IndexedFrameSource.sample(frame: sourceFrame, channel: 1))
            if abs(gain0 - gain1) > 1e-5 * max(abs(gain0), abs(gain1)) + 1e-12 || gain0 < 0 || gain0 > 1 {
                firstMisplaced = firstMisplaced ?? frame
            }
            gains.append(gain0)
        }
        self.gains = gains
        self.firstMisplacedFrame = firstMisplaced
    }

    var frameCount: Int { gains.count }

    /// The first output frame in `range` that is not bit for bit the source's.
    func firstAlteredFrame(in range: Range<Int>) -> Int? {
        range.first { frame in
            let sourceFrame = firstFrame + Int64(frame)
            return (0..<channelCount).contains { channel in
                output[frame * channelCount + channel].bitPattern
                    != IndexedFrameSource.sample(frame: sourceFrame, channel: channel).bitPattern
            }
        }
    }

    /// The largest gain change between neighbouring frames within `range`.
    func largestStep(in range: Range<Int>) -> Double {
        guard range.count > 1 else { return 0 }
        return range.dropFirst().map { abs(gains[$0] - gains[$0 - 1]) }.max() ?? 0
    }

    func isNonIncreasing(in range: Range<Int>) -> Bool {
        range.dropFirst().allSatisfy { gains[$0] <= gains[$0 - 1] + 1e-9 }
    }

    func isNonDecreasing(in range: Range<Int>) -> Bool {
        range.dropFirst().allSatisfy { gains[$0] >= gains[$0 - 1] - 1e-9 }
    }

    /// The largest step a raised-cosine ramp over `frameCount` frames may take, with room for Float rounding.
    static func stepBound(rampFrameCount: Int) -> Double {
        Double.pi / 2 / Double(rampFrameCount) * 1.001 + 1e-6
    }
}

/// A control that answers commands at chosen poll numbers (0 = the poll before the first block).
final class ScriptedControl {
    private let script: [Int: PlaybackCommand]
    private(set) var pollCount = 0

    init(_ script: [Int: PlaybackCommand]) {
        self.script = script
    }

    func poll() -> PlaybackCommand? {
        defer { pollCount += 1 }
        return script[pollCount]
    }
}
