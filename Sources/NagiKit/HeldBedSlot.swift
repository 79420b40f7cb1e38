import BedSource
import Locking
import Synth

/// A bed read whole into memory on a thread of its own while a soundtrack is prepared (`Soundtrack.prepare`),
/// for every write of it to share: filled by that thread, read by the preparing one after it joined it.
final class HeldBedSlot: Sendable {
    /// Written by the reading thread before it ends, read after the join: the lock costs nothing then, and lets
    /// the compiler check the hand-over.
    private let slot = Locked<HeldBed?>(nil)

    /// The bed read, once the reading thread has been joined (nil: none, or not held).
    var held: HeldBed? { slot.withLock { $0 } }

    /// The read of the bed at `path` into this slot, for a thread to run, when the recording (by what `decoder`,
    /// its first open, says of its length) is one a write would hold (`BedLooping.holdsInMemory`) under a session
    /// that hears `heardFrameCount` frames at `sampleRate`. Nil for any other: each write streams it.
    func reading(path: String, decoder: BedDecoder, sampleRate: Int, heardFrameCount: Int64) -> (@Sendable () -> Void)? {
        let channels = decoder.channelCount
        guard let expected = BedStream.frameCount(of: decoder, at: sampleRate),
              BedLooping.holdsInMemory(expectedFrameCount: expected, channelCount: channels, heardFrameCount: heardFrameCount) else { return nil }
        return { [self] in
            // On this thread alone (the other core measures the bed and compiles the plan meanwhile). On any fault
            // nothing is held, and the write opens the bed as it did before this, meeting and reporting the fault.
            guard let reader = try? BedReader(path: path, sampleRate: sampleRate, channelCount: channels, readAhead: .none) else { return }
            let loop = BedLooping.frames(of: reader, sampleRate: sampleRate, heardFrameCount: heardFrameCount, largestRead: SharedBedFeed.chunkFrames)
            if reader.failure == nil, let bed = loop.held { slot.withLock { $0 = bed } }
        }
    }
}
