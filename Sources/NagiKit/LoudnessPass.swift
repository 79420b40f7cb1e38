import BedSource
import Locking
import Loudness
import NagiMath
import Synchronization
import Synth

/// The first pass of a soundtrack with a loudness target: the calibrated render metered by `GatedLoudnessMeter`
/// (libebur128's arithmetic in a tighter loop; slice by slice, nothing kept but each 400 ms block's energy), its integrated loudness and
/// peak read, and the one gain that takes it to the target. The renderer is deterministic, so the soundtrack rendered with that gain is the measured render,
/// scaled: a file and live play apply the same gain and stay equal frame for frame.
///
/// The session is metered in two halves on two threads, each with its own renderer and bed reader (the second
/// seeks to its own first frame, so the session is synthesized once in all), and the halves' gating blocks are
/// pooled (as `ebur128_loudness_global_multiple` pools them): the same figure as one meter fed everything, less
/// the two or three 400 ms blocks straddling the seam. The split is fixed (not the core count), so the result
/// depends neither on timing nor on the machine.
enum LoudnessPass {
    /// Frames rendered and metered per block.
    static let blockFrameCount = 8192
    /// How far a loudness gain may push the calibrated render's largest sample past the highest loudness
    /// ceiling, for the limiter to take down, dB (a lossy file's limiter, lower by the encoding headroom, takes
    /// that much more).
    static let limitingAllowanceDecibels = 1.0

    /// Where the halves of a pass read the bed.
    enum Bed {
        /// No bed.
        case none
        /// The bed held in memory (`HeldBed`): each half reads it through a cursor of its own, nothing opened.
        case held(HeldBed)
        /// A reader a half, each its half's alone (the bed measurement's decoders, reading on): a second pass
        /// rewinds and reads them again, so a pass opens nothing of its own.
        case readers([BedReader])
    }

    /// Meters `plan` (compiled without a loudness gain, with the encoding headroom of the output it is for) and
    /// returns the gain to `targetLUFS`: the difference, held down so the peak passes the limiter's highest
    /// loudness ceiling (`RenderPlan.highestLoudnessCeilingDecibels`) by at most `limitingAllowanceDecibels`.
    /// A lossy file's limiter sits lower by the headroom, so the second pass meters it limited there: the
    /// gain makes up what that limiter takes, and the loudness said to be reached is the encoded file's.
    /// `bed` is handed over (`sending`): the halves read it on their threads (a second pass, made when the gain
    /// pushes the peaks past the limiter's knee, reads the same readers again from their start). `progress` is
    /// told the fraction of the session metered so far (both halves), on the calling thread only, at most every 1 %.
    /// - Throws: `.cancelled` when `cancel` says so, `.bed` for a bed that fails.
    static func measure(
        plan: RenderPlan, targetLUFS: Double, cancel: Cancellation, progress: (Double) -> Void = { _ in }, bed: sending Bed
    ) throws(SoundtrackError) -> LoudnessMeasurement {
        let (loudness, peak, bed) = try meter(plan, cancel: cancel, progress: progress, bed: bed)
        progress(1)
        // A silent render (every voice off) has no loudness to move: it is left as it is.
        guard loudness.isFinite else {
            return LoudnessMeasurement(measuredLUFS: loudness, peakDecibels: peak, gainDecibels: 0, targetLUFS: targetLUFS)
        }
        let wanted = targetLUFS - loudness
        // The true-peak limiter takes the loudest peaks down; up to `limitingAllowanceDecibels` of that is allowed
        // (it barely moves the loudness), more holds the gain down instead.
        let allowed = peak.isFinite ? RenderPlan.highestLoudnessCeilingDecibels + limitingAllowanceDecibels - peak : wanted
        let gain = min(wanted, allowed)
        let gained = plan.withLoudnessGain(decibels: gain)
        guard peak + gain > gained.limiterKneeDecibels else {
            return LoudnessMeasurement(measuredLUFS: loudness, peakDecibels: peak, gainDecibels: gain, targetLUFS: targetLUFS)
        }
        // Past its knee the limiter turns peaks down and the render comes out a little under measured + gain
        // (0.1 LU with a spoken guide): metered again at that gain (the bed read again from its start), and the
        // gain raised by the shortfall, as far as the peak allows.
        let (limited, _, _) = try meter(gained, cancel: cancel, progress: { _ in }, bed: bed)
        guard limited.isFinite else {
            return LoudnessMeasurement(measuredLUFS: loudness, peakDecibels: peak, gainDecibels: gain, targetLUFS: targetLUFS)
        }
        let loss = max(0, loudness + gain - limited)
        return LoudnessMeasurement(
            measuredLUFS: loudness, peakDecibels: peak, gainDecibels: min(gain + loss, max(gain, allowed)), targetLUFS: targetLUFS,
            limiterLossDecibels: loss)
    }

    /// Frames metered by every half, for the calling thread to tell its progress callback while the halves run
    /// on threads of their own.
    private final class ProgressReport: Sendable {
        private let meteredFrames = Atomic<Int64>(0)
        private let finishedHalves = Atomic<Int>(0)
        private let totalFrames: Int64
        /// Frames of 1 %: the caller is woken when the count passes a multiple of it, and when a half ends.
        private let stepFrames: Int64
        private let changed = ConditionLock()

        init(totalFrames: Int64) {
            self.totalFrames = max(1, totalFrames)
            stepFrames = max(1, self.totalFrames / 100)
        }

        /// Counts `frameCount` more frames metered (on a half's thread).
        func add(_ frameCount: Int) {
            let before = meteredFrames.add(Int64(frameCount), ordering: .relaxed).oldValue
            if (before + Int64(frameCount)) / stepFrames != before / stepFrames { changed.withLockWakingAll {} }
        }

        /// Says a half has ended, whichever way.
        func finishHalf() {
            finishedHalves.add(1, ordering: .relaxed)
            changed.withLockWakingAll {}
        }

        /// On the calling thread, until `halves` halves have ended: tells `progress` the fraction metered, rising,
        /// at most every 1 % (and not 1, which the caller says once the pass is done).
        func show(_ progress: (Double) -> Void, halves: Int) {
            var shown: Int64 = 0
            while true {
                let (done, frames) = changed.waitUntil({
                    finishedHalves.load(ordering: .relaxed) >= halves || meteredFrames.load(ordering: .relaxed) >= shown + stepFrames
                }) { _ in (finishedHalves.load(ordering: .relaxed) >= halves, meteredFrames.load(ordering: .relaxed)) }
                if done { return }
                shown = frames
                progress(min(0.999, Double(frames) / Double(totalFrames)))
            }
        }
    }

    /// Meters the whole render of `plan` in halves on two threads, reading `bed`: its integrated loudness (LUFS)
    /// and sample peak (dBFS), and the bed handed back, for a second pass to read again.
    private static func meter(
        _ plan: RenderPlan, cancel: Cancellation, progress: (Double) -> Void, bed: sending Bed
    ) throws(SoundtrackError) -> sending (loudness: Double, peak: Double, bed: Bed) {
        let totalFrames = plan.totalFrameCount
        let heldBed: HeldBed? = if case let .held(held) = bed { held } else { nil }
        let readsReaders = if case .readers = bed { true } else { false }
        let spans = spans(totalFrames: totalFrames)
        let report = ProgressReport(totalFrames: totalFrames)
        var jobs: [() -> (half: Result<Half, SoundtrackError>, reader: BedReader?)] = []
        for (index, span) in spans.enumerated() {
            let (reader, held): (BedReader?, HeldBed?) = switch bed {
            case .none: (nil, nil)
            case let .held(bed): (nil, bed)
            case let .readers(readers): (index < readers.count ? readers[index] : nil, nil)
            }
            jobs.append {
                defer { report.finishHalf() }
                // A reader read before (the first pass's, or the measurement's) starts again from its first frame.
                reader?.seek(toFrame: 0)
                let renderer = held.map { Renderer(plan: plan, loopedBed: $0.makeCursor()) } ?? Renderer(plan: plan, bed: reader)
                do throws(SoundtrackError) {
                    let half = try meterSpan(span, renderer: renderer, cancel: cancel, report: report)
                    if let failure = reader?.failure { throw .bed(failure) }
                    return (.success(half), reader)
                } catch {
                    return (.failure(error), reader)
                }
            }
        }
        let outcomes = ParallelRunner.run(handingOver: jobs) { report.show(progress, halves: spans.count) }
        var halves: [Half] = []
        for outcome in outcomes {
            switch outcome.half {
            case let .success(half): halves.append(half)
            case let .failure(error): throw error
            }
        }
        let loudness = GatedLoudnessMeter.integratedLoudness(of: halves.map(\.meter))
        let peak = 20 * NagiMath.log10(Double(halves.map(\.peak).max() ?? 0))
        // The bed handed back: the readers came back with their halves' outcomes.
        let handedBack: Bed = if let heldBed { .held(heldBed) } else if readsReaders { .readers(outcomes.compactMap(\.reader)) } else { .none }
        return (loudness, peak, handedBack)
    }

    /// The stretches of a render of `totalFrames` frames its halves meter: two halves split on a block boundary;
    /// a session shorter than a few blocks is metered whole.
    static func spans(totalFrames: Int64) -> [Range<Int64>] {
        let blocks = Int64(blockFrameCount)
        let seam = totalFrames > 8 * blocks ? (totalFrames / 2) / blocks * blocks : totalFrames
        return seam < totalFrames ? [0..<seam, seam..<totalFrames] : [0..<totalFrames]
    }

    /// One metered stretch of the render: its meter and its largest sample magnitude.
    private struct Half {
        var meter: GatedLoudnessMeter
        var peak: Float
    }

    /// Renders the frames in `span` (seeking to its start) into a meter, slice by slice: each slice of
    /// `Soundtrack.sliceFrameCount` frames K-weighted as a written file's slices are (`LoudnessSlice`: two
    /// segments in lockstep where the machine has AVX), then completed in order by the meter.
    private static func meterSpan(_ span: Range<Int64>, renderer: Renderer, cancel: Cancellation, report: ProgressReport) throws(SoundtrackError) -> Half {
        let channelCount = renderer.channelCount
        let meter = GatedLoudnessMeter(channelCount: channelCount, sampleRate: renderer.sampleRate)
        let slice = meter.makeSlice()
        // Seeking computes the state at the span's start (and reads the bed up to it) without synthesis.
        if span.lowerBound > 0 { renderer.seek(toFrame: span.lowerBound) }
        let sliceFrameCount = Soundtrack.sliceFrameCount
        let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: sliceFrameCount * channelCount)
        defer { buffer.deallocate() }
        var peak: Float = 0
        while renderer.nextFrame < span.upperBound {
            let sliceStart = renderer.nextFrame
            let sliceFrames = Int(min(Int64(sliceFrameCount), span.upperBound - sliceStart))
            var done = 0
            // Block by block, so a cancel and the progress are never more than a block away.
            while done < sliceFrames {
                if cancel.isCancelled { throw .cancelled }
                let frames = min(blockFrameCount, sliceFrames - done)
                renderer.render(into: UnsafeMutableBufferPointer(rebasing: buffer[(done * channelCount)...]), frameCount: frames)
                done += frames
                report.add(frames)
            }
            let samples = UnsafeBufferPointer(rebasing: buffer[0..<(sliceFrames * channelCount)])
            slice.measure(samples, firstFrame: sliceStart - span.lowerBound)
            meter.add(slice, samples: samples)
            peak = max(peak, slice.largestMagnitude(of: samples))
        }
        return Half(meter: meter, peak: peak)
    }
}
