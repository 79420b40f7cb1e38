import NagiBase

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

    /// `recording` (frames at the session's rate in the render's channels, read from its first frame) looped as
    /// `plan`'s bed voice loops it, for reads of at most `largestRead` frames.
    public static func frames(of recording: any FrameReader<Never>, for plan: RenderPlan, largestRead: Int) -> BedLoop {
        precondition(recording.channelCount == plan.settings.channelCount, "the bed must come in the render's channels")
        return frames(of: recording, sampleRate: plan.sampleRate, heardFrameCount: plan.curves.silenceStartFrame, largestRead: largestRead)
    }

    /// `recording` looped at `sampleRate` under a session that hears `heardFrameCount` frames of it (a plan's
    /// `curves.silenceStartFrame`), before the plan exists: the same frames as for the plan.
    public static func frames(of recording: any FrameReader<Never>, sampleRate: Int, heardFrameCount: Int64, largestRead: Int) -> BedLoop {
        BedLoop(recording: recording, sampleRate: sampleRate, largestRequest: largestRead, heardFrameCount: heardFrameCount)
    }
}
