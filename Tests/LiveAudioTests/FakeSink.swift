import Glibc
import LiveAudio

/// A sink that records every accepted sample and injects faults at chosen frames.
///
/// A fault at frame F cuts any write that crosses F short at F; the next write, which starts at F, then meets the
/// fault: `.failure` returns it (once), `.shortWrite` only needed the cut. This is how ALSA behaves too: a write
/// that fails midway returns the frames it took, and the error comes with the next call.
final class FakeSink: PCMSink {
    enum FaultKind: Equatable {
        case shortWrite
        case failure(errno: Int32)
    }

    enum Event: Equatable {
        case wrote(frameCount: Int)
        case failed(errno: Int32)
        case recovered(errno: Int32)
        case drained
    }

    let deviceName = "fake"
    let channelCount: Int
    let sampleRate: Int
    /// What `recover(from:)` answers.
    var recoverSucceeds = true
    /// The delay reported while frames are in flight (capped by the frames written since the last drain).
    var reportedDelayFrames: Int64 = 0

    private var faults: [(frame: Int, kind: FaultKind)]
    private(set) var samples: [Float] = []
    private(set) var events: [Event] = []
    private var framesSinceDrain: Int64 = 0

    init(channelCount: Int, sampleRate: Int, faults: [(frame: Int, kind: FaultKind)] = []) {
        self.channelCount = channelCount
        self.sampleRate = sampleRate
        self.faults = faults
    }

    var acceptedFrameCount: Int { samples.count / channelCount }

    /// The frames accepted before the first drain.
    var framesBeforeFirstDrain: Int {
        var count = 0
        for event in events {
            if event == .drained { return count }
            if case let .wrote(frameCount) = event { count += frameCount }
        }
        return count
    }

    func write(_ interleaved: UnsafeBufferPointer<Float>, frameCount: Int) -> PCMWriteResult {
        precondition(interleaved.count >= frameCount * channelCount)
        let start = acceptedFrameCount
        if let index = faults.firstIndex(where: { $0.frame == start }) {
            let fault = faults.remove(at: index)
            if case let .failure(code) = fault.kind {
                events.append(.failed(errno: code))
                return .failed(errno: code)
            }
        }
        var count = frameCount
        if let cut = faults.map(\.frame).filter({ $0 > start && $0 < start + frameCount }).min() {
            count = cut - start
        }
        samples.append(contentsOf: interleaved[0..<(count * channelCount)])
        framesSinceDrain += Int64(count)
        events.append(.wrote(frameCount: count))
        return .written(count)
    }

    func recover(from errno: Int32) -> Bool {
        events.append(.recovered(errno: errno))
        return recoverSucceeds
    }

    func delayFrames() -> Int64 {
        min(reportedDelayFrames, framesSinceDrain)
    }

    func drain() {
        events.append(.drained)
        framesSinceDrain = 0
    }
}
