import NagiBase
import NagiMath

/// A recording made as long as the session: played from its start, and at its end crossfaded (equal power:
/// cos/sin gains, so two uncorrelated sounds keep their summed power and nothing steps) into itself from
/// `fadeFrames` on, again and again. A recording at most two fades long is held in memory and fades over a
/// third of its length; one that loops (shorter than the session) and whose file says it fits in
/// `memoryBudgetBytes` at the session's rate is read once
/// into memory too (decoded and resampled once, however often it loops: a 7.3 s bed under ten minutes was
/// decoded 80 times); a longer one is streamed through a ring that looks `fadeFrames` ahead, so the end is
/// known before the fade must start. The output depends only on the recording's frames, never on how reads
/// are sized or where they come from. Memory: the ring and the recording's first `fadeFrames` (about 2 s) for a
/// streamed one, whatever its length; at most the budget for one held.
///
/// A `FrameReader` of session frames that never ends (every read writes all it is asked for, `frameCount` is
/// nil); it reads its recording, another `FrameReader`, a chunk at a time. Made by `BedLooping.frames`.
public final class BedLoop: FrameReader {
    /// The seam's crossfade for a long recording, seconds.
    static let crossfadeSeconds = 2.0
    /// The most a recording held in memory may take, bytes: 32 MiB, 87 s of 48 kHz stereo (a few loops' worth
    /// of decoding saved per render; the peak-memory goal over a one-hour bed is 64 MB, streamed).
    public static let memoryBudgetBytes = 32 << 20
    /// Frames read from the recording per refill.
    private static let chunkFrames = 4_096

    public let channelCount: Int
    /// The session's rate, Hz: the recording's frames come at it.
    public let sampleRate: Int
    /// Frames of each seam's crossfade.
    let fadeFrames: Int
    private let recording: any FrameReader<Never>
    /// A short recording, whole (nil: streamed).
    private let memory: FloatBuffer?
    private let memoryFrames: Int
    private var memoryPosition = 0
    /// The recording's first `fadeFrames` frames: what each seam fades into.
    private let head: FloatBuffer
    private let fadeOut: FloatBuffer
    private let fadeIn: FloatBuffer
    /// Frames of the recording's passes in order (the first from frame 0, the others from `fadeFrames`).
    private let ring: FloatBuffer
    private let ringFrames: Int
    /// Where the skipped head frames of each new pass are read to.
    private let skipScratch: FloatBuffer
    private let largestRequest: Int
    /// Frames ever written into the ring and ever handed out.
    private var writtenFrames: Int64 = 0
    private var readFrames: Int64 = 0
    /// Where each pass still ahead ends, in ring frames; its last `fadeFrames` are its seam.
    private var passEnds: [Int64] = []
    /// The recording gave nothing more (an empty pass or a failed read): silence after what is in the ring.
    private var exhausted = false
    /// The first pass's length, the recording's whole (nil until a streamed recording's end is met): with it a
    /// seek reads at most one pass of the recording, whatever the frame.
    private var firstPassFrames: Int64?

    /// Loops `recording` at `sampleRate`, for reads of at most `largestRequest` frames, under a session that
    /// hears `heardFrameCount` frames of it (a recording that long or longer never loops, so it is streamed).
    init(recording: any FrameReader<Never>, sampleRate: Int, largestRequest: Int, heardFrameCount: Int64 = .max) {
        let channels = recording.channelCount
        channelCount = channels
        self.sampleRate = sampleRate
        self.recording = recording
        self.largestRequest = largestRequest
        let longFade = max(1, Int(Self.crossfadeSeconds * Double(sampleRate)))
        // Probe two fades and a frame: a recording that ends inside is short.
        let probeFrames = 2 * longFade + 1
        let probe = FloatBuffer(count: probeFrames * channels)
        var probed = 0
        while probed < probeFrames {
            let got = Self.read(recording, into: probe.base + probed * channels, frameCount: min(Self.chunkFrames, probeFrames - probed))
            if got == 0 { break }
            probed += got
        }
        // A recording the budget holds (by its file's word) is read to its end now.
        var whole: FloatBuffer?
        var wholeFrames = 0
        let budgetFrames = Self.memoryBudgetBytes / (channels * MemoryLayout<Float>.stride)
        if probed == probeFrames, let expected = recording.frameCount,
           BedLooping.holdsInMemory(expectedFrameCount: expected, channelCount: channels, heardFrameCount: heardFrameCount) {
            let capacity = min(budgetFrames, Int(expected) + Self.chunkFrames)
            let buffer = FloatBuffer(count: capacity * channels)
            buffer.base.update(from: probe.base, count: probed * channels)
            wholeFrames = probed
            while wholeFrames < capacity {
                let got = Self.read(recording, into: buffer.base + wholeFrames * channels, frameCount: min(Self.chunkFrames, capacity - wholeFrames))
                wholeFrames += got
                if got == 0 { break }
            }
            if wholeFrames < capacity {
                whole = buffer
            } else {
                // Longer than its file said: streamed after all, from its start.
                recording.rewind()
                var skipped = 0
                while skipped < probeFrames {
                    let got = Self.read(recording, into: buffer.base, frameCount: min(Self.chunkFrames, probeFrames - skipped))
                    skipped += got
                    if got == 0 { break }
                }
            }
        }
        let fade = probed < probeFrames ? probed / 3 : longFade
        fadeFrames = fade
        head = FloatBuffer(count: fade * channels)
        head.base.update(from: probe.base, count: fade * channels)
        fadeOut = FloatBuffer(count: fade)
        fadeIn = FloatBuffer(count: fade)
        for k in 0..<fade {
            let angle = 0.5 * Double.pi * (Double(k) + 0.5) / Double(fade)
            fadeOut.base[k] = Float(cos(angle))
            fadeIn.base[k] = Float(sin(angle))
        }
        ringFrames = max(probeFrames, fade + largestRequest) + Self.chunkFrames
        ring = FloatBuffer(count: ringFrames * channels)
        skipScratch = FloatBuffer(count: Self.chunkFrames * channels)
        if let whole {
            memory = whole
            memoryFrames = wholeFrames
            firstPassFrames = Int64(wholeFrames)
        } else if probed < probeFrames {
            memory = probe
            memoryFrames = probed
            exhausted = probed == 0
            firstPassFrames = Int64(probed)
        } else {
            memory = nil
            memoryFrames = 0
            ring.base.update(from: probe.base, count: probed * channels)
            writtenFrames = Int64(probed)
        }
    }

    /// The recording held whole in memory, when this loop holds it (nil: streamed), as a loop any number of
    /// renderers can read through cursors of their own (`HeldBed`).
    public var held: HeldBed? {
        memory.map {
            HeldBed(
                channelCount: channelCount, sampleRate: sampleRate, recording: $0, recordingFrames: memoryFrames, fadeFrames: fadeFrames,
                fadeOut: fadeOut, fadeIn: fadeIn)
        }
    }

    /// Nil: the loop never ends.
    public var frameCount: Int64? { nil }

    /// The session frame the next read starts at.
    public var nextFrame: Int64 { readFrames }

    /// Reads `frameCount` frames of the recording into `output`; fewer only at its end.
    private func readRecording(into output: UnsafeMutablePointer<Float>, frameCount: Int) -> Int {
        Self.read(recording, into: output, frameCount: frameCount)
    }

    /// Reads `frameCount` frames of `recording` into `output`; fewer only at its end.
    private static func read(_ recording: any FrameReader<Never>, into output: UnsafeMutablePointer<Float>, frameCount: Int) -> Int {
        recording.read(into: UnsafeMutableBufferPointer(start: output, count: frameCount * recording.channelCount))
    }

    /// Writes the next `output.count / channelCount` frames (at most `largestRequest`) of the endless bed into
    /// `output` and returns how many: all of them.
    public func read(into buffer: UnsafeMutableBufferPointer<Float>) -> Int {
        guard let output = buffer.baseAddress else { return 0 }
        let frameCount = buffer.count / channelCount
        precondition(frameCount <= largestRequest, "a bed read is at most \(largestRequest) frames")
        // Any seam that touches these frames must be known: look a whole fade past them.
        fill(through: readFrames + Int64(frameCount + fadeFrames))
        let channels = channelCount
        let fade = Int64(fadeFrames)
        var done = 0
        while done < frameCount {
            let position = readFrames + Int64(done)
            while let end = passEnds.first, end <= position { passEnds.removeFirst() }
            let available = Int(min(Int64(frameCount - done), writtenFrames - position))
            if available <= 0 {
                (output + done * channels).update(repeating: 0, count: (frameCount - done) * channels)
                break
            }
            let target = output + done * channels
            if let end = passEnds.first, end - fade <= position {
                // Inside a seam: the pass's last frames fade out as the head fades in.
                let count = min(available, Int(end - position))
                let seamOffset = Int(position - (end - fade))
                copyFromRing(at: position, count: count, into: target)
                Self.mixSeam(
                    ending: UnsafePointer(target), head: head.base + seamOffset * channels, fadeOut: fadeOut.base + seamOffset,
                    fadeIn: fadeIn.base + seamOffset, frameCount: count, channelCount: channels, into: target)
                done += count
            } else {
                let seamStart = passEnds.first.map { $0 - fade } ?? Int64.max
                let count = Int(min(Int64(available), seamStart - position))
                copyFromRing(at: position, count: count, into: target)
                done += count
            }
        }
        readFrames += Int64(frameCount)
        return frameCount
    }

    /// Writes `frameCount` frames of a seam into `output`: the pass's last frames `ending` fading out by
    /// `fadeOut` as the recording's head `head` fades in by `fadeIn` (`ending` may be `output` itself). The one
    /// expression of a seam, which `HeldBed` shares so its frames are the same to the bit.
    @inline(__always)
    static func mixSeam(
        ending: UnsafePointer<Float>, head: UnsafePointer<Float>, fadeOut: UnsafePointer<Float>, fadeIn: UnsafePointer<Float>,
        frameCount: Int, channelCount channels: Int, into output: UnsafeMutablePointer<Float>
    ) {
        for n in 0..<frameCount {
            for channel in 0..<channels {
                let index = n * channels + channel
                output[index] = ending[index] * fadeOut[n] + head[index] * fadeIn[n]
            }
        }
    }

    /// Moves the bed to its frame `frame`, forward or back: the next `read` gives what it would have given there
    /// after reads of every frame before it, sample for sample (for a recording that gives the same frames
    /// after every rewind; a failing one is as exact as its reads).
    ///
    /// The bed at a frame is a recording frame, in a pass whose seam (if the frame is in it) is found by
    /// reading on, so the ring is emptied and refilled from that recording frame. Cost: reading and discarding
    /// the recording up to it (at most one pass; a recording held in memory reads nothing), or, when that is
    /// cheaper, the frames between the current place and `frame`; until a streamed recording's length is
    /// known, a seek past its end reads it through once to learn it.
    public func seek(toFrame frame: Int64) {
        precondition(frame >= 0, "a bed frame is never negative")
        if frame >= readFrames {
            let ahead = frame - readFrames
            // Reading on through the ring is exact too; take it when it reads fewer recording frames.
            if memory == nil, ahead <= (firstPassFrames.map { recordingFrame(at: frame, passFrames: $0) } ?? frame) {
                skip(ahead)
                return
            }
        }
        passEnds.removeAll(keepingCapacity: true)
        readFrames = frame
        writtenFrames = frame
        exhausted = false
        if memory != nil {
            memoryPosition = Int(recordingFrame(at: frame, passFrames: Int64(memoryFrames)))
            exhausted = memoryFrames == 0
            return
        }
        recording.rewind()
        if firstPassFrames == nil {
            let read = discard(frame)
            if read == frame { return }
            // The recording ended first: now its length is known.
            firstPassFrames = read
            recording.rewind()
        }
        let target = recordingFrame(at: frame, passFrames: firstPassFrames ?? 0)
        if discard(target) < target { exhausted = true }
    }

    /// The recording frame heard at bed frame `frame` (outside a seam's fade-in) when the first pass is
    /// `passFrames` long: the first pass from 0, every later one from `fadeFrames`.
    private func recordingFrame(at frame: Int64, passFrames: Int64) -> Int64 {
        Self.recordingFrame(at: frame, passFrames: passFrames, fadeFrames: fadeFrames)
    }

    /// The recording frame heard at bed frame `frame` of a loop whose first pass is `passFrames` long and whose
    /// seams fade over `fadeFrames`: the loop's one arithmetic, which `HeldBed` reads by as well.
    static func recordingFrame(at frame: Int64, passFrames: Int64, fadeFrames: Int) -> Int64 {
        let fade = Int64(fadeFrames)
        if frame < passFrames || passFrames <= fade { return min(frame, passFrames) }
        return fade + (frame - passFrames) % (passFrames - fade)
    }

    /// Moves on `frames` frames as reads would, without writing them out: the ring fills and the passes are
    /// tracked as by reads, so the next read continues the same bed.
    private func skip(_ frames: Int64) {
        // Any step that leaves room in the ring for the look-ahead is exact; the largest keeps the loop short.
        let largestStep = Int64(ringFrames - fadeFrames)
        var remaining = frames
        while remaining > 0 {
            let step = min(remaining, largestStep)
            fill(through: readFrames + step + Int64(fadeFrames))
            readFrames += step
            remaining -= step
        }
        while let end = passEnds.first, end <= readFrames { passEnds.removeFirst() }
    }

    /// Reads and drops up to `frames` frames of the recording; returns how many it gave.
    private func discard(_ frames: Int64) -> Int64 {
        var done: Int64 = 0
        while done < frames {
            let wanted = Int(min(Int64(Self.chunkFrames), frames - done))
            let got = readRecording(into: skipScratch.base, frameCount: wanted)
            done += Int64(got)
            if got < wanted { break }
        }
        return done
    }

    /// Copies `count` ring frames from absolute frame `position`, across the ring's wrap.
    private func copyFromRing(at position: Int64, count: Int, into target: UnsafeMutablePointer<Float>) {
        let channels = channelCount
        let start = Int(position % Int64(ringFrames))
        let first = min(count, ringFrames - start)
        target.update(from: ring.base + start * channels, count: first * channels)
        if first < count {
            (target + first * channels).update(from: ring.base, count: (count - first) * channels)
        }
    }

    /// Reads passes into the ring until it holds frames up to `frame` (or the recording gives no more).
    private func fill(through frame: Int64) {
        let channels = channelCount
        while writtenFrames < frame && !exhausted {
            let start = Int(writtenFrames % Int64(ringFrames))
            let space = ringFrames - Int(writtenFrames - readFrames)
            let wanted = min(Self.chunkFrames, space, ringFrames - start)
            if wanted <= 0 { return }
            let got = readPass(into: ring.base + start * channels, frameCount: wanted)
            writtenFrames += Int64(got)
            if got < wanted {
                // A pass that gave nothing past its seam cannot loop: stop rather than spin.
                if let last = passEnds.last, last == writtenFrames { exhausted = true; return }
                // Ring frames of the first pass are the recording's own frames, so its end is the recording's length.
                if firstPassFrames == nil { firstPassFrames = writtenFrames }
                passEnds.append(writtenFrames)
                restartPass()
            }
        }
    }

    /// Reads the current pass: from memory for a short recording, else from the stream.
    private func readPass(into target: UnsafeMutablePointer<Float>, frameCount: Int) -> Int {
        guard let memory else { return readRecording(into: target, frameCount: frameCount) }
        let count = min(frameCount, memoryFrames - memoryPosition)
        target.update(from: memory.base + memoryPosition * channelCount, count: count * channelCount)
        memoryPosition += count
        return count
    }

    /// Starts the next pass just after the frames the seam faded in.
    private func restartPass() {
        if memory != nil {
            memoryPosition = fadeFrames
            return
        }
        recording.rewind()
        // The head was already heard inside the seam: read past it.
        var skipped = 0
        while skipped < fadeFrames {
            let wanted = min(Self.chunkFrames, fadeFrames - skipped)
            let got = readRecording(into: skipScratch.base, frameCount: wanted)
            skipped += got
            if got < wanted { exhausted = true; return }
        }
    }
}
