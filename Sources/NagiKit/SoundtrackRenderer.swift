import NagiBase
import Synth

/// Pulls a prepared soundtrack's samples, block by block, into interleaved or planar buffers, from any frame.
///
/// The samples are the same whatever the block sizes and wherever a `seek(toFrame:)` lands: exactly those a
/// render from frame 0 gives there. Frames past `totalFrameCount` are silence. Not thread-safe: one renderer
/// belongs to one pulling loop (make one per thread). `render` neither allocates nor locks (planar output
/// allocates its staging once, on the first request larger than any before), except that a bed read ahead
/// waits for its threads when they are behind unless `bedReadsWait` is false.
///
/// A `FrameReader` that cannot throw (a failing bed plays silence and is reported in `bedFailure`), which a live
/// player pulls (`PlaybackLoop`): its reads end at `totalFrameCount`.
public final class SoundtrackRenderer: FrameReader {
    /// The synthesis engine.
    private let renderer: Renderer
    /// The bed this renderer reads (nil without one).
    private let bed: BedReader?
    /// Interleaved staging for planar output, grown to the largest request.
    private var interleaved = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)

    init(plan: RenderPlan, bed: BedReader?) {
        renderer = Renderer(plan: plan, bed: bed)
        self.bed = bed
    }

    /// A renderer whose bed is frames looped elsewhere (a sliced write's `SharedBedFeed`), reporting no bed
    /// failure of its own.
    init(plan: RenderPlan, loopedBed: any FrameReader<Never>) {
        renderer = Renderer(plan: plan, loopedBed: loopedBed)
        bed = nil
    }

    deinit {
        interleaved.deallocate()
    }

    /// Interleaved channels per frame.
    public var channelCount: Int { renderer.channelCount }
    /// Frames per second.
    public var sampleRate: Int { renderer.sampleRate }
    /// Frames of the whole soundtrack.
    public var totalFrameCount: Int64 { renderer.totalFrameCount }
    /// The next frame `render` writes.
    public var nextFrame: Int64 { renderer.nextFrame }
    /// `totalFrameCount`: the soundtrack's length is known before a frame is rendered.
    public var frameCount: Int64? { renderer.totalFrameCount }

    /// Writes `frameCount` interleaved frames from `nextFrame` into `buffer` (at most
    /// `buffer.count / channelCount`) and advances `nextFrame`.
    public func render(into buffer: UnsafeMutableBufferPointer<Float>, frameCount: Int) {
        renderer.render(into: buffer, frameCount: frameCount)
    }

    /// Writes the next `output.count / channelCount` interleaved frames into `output`, no further than
    /// `totalFrameCount`, advances `nextFrame` past them and returns how many: fewer than asked only at the end
    /// (0 once it is reached). The same samples as `render(into:frameCount:)`.
    public func read(into output: UnsafeMutableBufferPointer<Float>) -> Int {
        let frames = Int(min(Int64(output.count / channelCount), max(0, renderer.totalFrameCount - renderer.nextFrame)))
        renderer.render(into: output, frameCount: frames)
        return frames
    }

    /// Writes `frameCount` frames from `nextFrame` into one buffer per channel (`planes.count == channelCount`,
    /// each at least `frameCount` long) and advances `nextFrame`.
    public func render(planes: [UnsafeMutableBufferPointer<Float>], frameCount: Int) {
        precondition(planes.count == channelCount, "one plane per channel")
        let channels = channelCount
        if interleaved.count < frameCount * channels {
            interleaved.deallocate()
            interleaved = .allocate(capacity: frameCount * channels)
        }
        renderer.render(into: interleaved, frameCount: frameCount)
        guard let source = interleaved.baseAddress else { return }
        for (channel, plane) in planes.enumerated() {
            guard let target = plane.baseAddress else { continue }
            for frame in 0..<min(frameCount, plane.count) {
                target[frame] = source[frame * channels + channel]
            }
        }
    }

    /// Moves to `frame`: the next `render` gives exactly the samples a render from frame 0 gives from there.
    /// Costs a pass over the control curves up to `frame` (no synthesis) and, with a bed, reading the bed up to
    /// there.
    public func seek(toFrame frame: Int64) {
        renderer.seek(toFrame: frame)
    }

    /// Computes ahead the control points that the next `frameCount` frames synthesize and returns the checkpoint
    /// for a seek to output frame `frame` (normally where those frames end), which this or another renderer of the
    /// same soundtrack can seek from (`seek(from:)`) without replaying the control curves up to it: how a sliced
    /// write hands each slice's start to the renderer that takes it. What this renderer renders is unchanged.
    package func prepareControl(frameCount: Int, checkpointAt frame: Int64) -> Renderer.SeekCheckpoint {
        renderer.prepareControl(frameCount: frameCount, checkpointAt: frame)
    }

    /// Moves to `checkpoint.frame`, with the same samples from there as `seek(toFrame:)` gives, starting from the
    /// checkpoint instead of a pass over the control curves (a bed is still read up to there).
    package func seek(from checkpoint: Renderer.SeekCheckpoint) {
        renderer.seek(from: checkpoint)
    }

    /// The listener's volume in dB, ahead of the true-peak limiter (live playback's `+` and `-`).
    public var liveGainDecibels: Double { renderer.liveGainDecibels }

    /// Moves the listener's volume to `decibels`, ramped over 50 ms (at once before the first frame).
    public func setLiveGain(decibels: Double) {
        renderer.setLiveGain(decibels: decibels)
    }

    /// Whether bed reads wait for the read-ahead threads (true: the output never depends on timing). An app
    /// pulling from a real-time callback sets it false: when the threads are behind, the bed plays silence for
    /// that read (counted in `bedUnderrunCount`) instead of blocking.
    public var bedReadsWait: Bool {
        get { bed?.readsWait ?? true }
        set { bed?.readsWait = newValue }
    }

    /// Bed reads that played silence because the read-ahead was behind.
    public var bedUnderrunCount: Int { bed?.underrunCount ?? 0 }

    /// The first failure of the bed's recording the render reached (it then reads as silence), if any: a
    /// render that met one is not the soundtrack and should be reported.
    public var bedFailure: SoundtrackError? { bed?.failure.map { .bed($0) } }
}
