/// The looped bed by session frame, as the bed voice reads it: frame after frame from where it was sought to,
/// each the same whoever asks and however reads are sized. `BedLoop` makes them from a recording; a sliced write
/// shares one loop's frames among its renderers so the recording is decoded once, not once per renderer.
public protocol LoopedBedFrames: AnyObject {
    /// Moves to session frame `frame`: the next read starts there.
    func seek(to frame: Int64)
    /// Writes the next `frameCount` interleaved frames (at most the largest read the source was made for).
    func read(into output: UnsafeMutablePointer<Float>, frameCount: Int)
    /// The recording held whole in memory, when these frames loop one (nil: streamed): then any number of
    /// renderers can read the same loop through cursors of their own.
    var held: HeldBed? { get }
    /// The next `frameCount` frames where they already lie in memory, moving on past them as `read` would, or
    /// nil (without moving) when they do not lie in one piece: then `read` them.
    func nextFramesInPlace(frameCount: Int) -> UnsafePointer<Float>?
}

extension LoopedBedFrames {
    public var held: HeldBed? { nil }
    public func nextFramesInPlace(frameCount: Int) -> UnsafePointer<Float>? { nil }
}

extension BedLoop: LoopedBedFrames {
    var held: HeldBed? { heldRecording }
}

/// Makes the looped frames of a bed recording for a plan.
public enum BedLooping {
    /// The most a recording held in memory may take, bytes (`BedLoop.memoryBudgetBytes`): a longer one is
    /// streamed.
    public static var memoryBudgetBytes: Int { BedLoop.memoryBudgetBytes }

    /// Whether a recording whose file says it is `expectedFrameCount` frames long at the session's rate, in
    /// `channelCount` channels, is read whole into memory under a session that hears `heardFrameCount` frames:
    /// it loops (shorter than what is heard) and fits `memoryBudgetBytes`. (A recording shorter than two
    /// crossfades is held whatever it says.) One rule for the loop, the kept first pass and `prepare`'s read.
    public static func holdsInMemory(expectedFrameCount: Int64, channelCount: Int, heardFrameCount: Int64) -> Bool {
        expectedFrameCount < heardFrameCount
            && expectedFrameCount < Int64(memoryBudgetBytes / (channelCount * MemoryLayout<Float>.stride))
    }

    /// `recording` looped as `plan`'s bed voice loops it (read from its first frame), for reads of at most
    /// `largestRead` frames.
    public static func frames(of recording: BedRecording, for plan: RenderPlan, largestRead: Int) -> LoopedBedFrames {
        precondition(recording.channelCount == plan.settings.channelCount, "the bed must come in the render's channels")
        return frames(of: recording, sampleRate: plan.sampleRate, heardFrameCount: plan.curves.silenceStartFrame, largestRead: largestRead)
    }

    /// `recording` looped at `sampleRate` under a session that hears `heardFrameCount` frames of it (a plan's
    /// `curves.silenceStartFrame`), before the plan exists: the same frames as for the plan.
    public static func frames(of recording: BedRecording, sampleRate: Int, heardFrameCount: Int64, largestRead: Int) -> LoopedBedFrames {
        BedLoop(recording: recording, sampleRate: sampleRate, largestRequest: largestRead, heardFrameCount: heardFrameCount)
    }
}
