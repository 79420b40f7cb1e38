import BedSource
import Glibc
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

    /// Meters `plan` (compiled without a loudness gain, with the encoding headroom of the output it is for) and
    /// returns the gain to `targetLUFS`: the difference, held down so the peak passes the limiter's highest
    /// loudness ceiling (`RenderPlan.highestLoudnessCeilingDecibels`) by at most `limitingAllowanceDecibels`.
    /// A lossy file's limiter sits lower by the headroom, so the second pass meters it limited there: the
    /// gain makes up what that limiter takes, and the loudness said to be reached is the encoded file's.
    /// `openBed(half)` gives each half its bed reader (nil without a bed; halves 2 and 3 are a second pass's,
    /// made when the gain pushes the peaks past the limiter's knee). `progress` is told the fraction of
    /// the session metered so far (both halves), on the calling thread only, after a block at most every 1 %.
    /// - Throws: `.cancelled` when `cancel` says so, `.bed` for a bed that fails.
    static func measure(
        plan: RenderPlan, targetLUFS: Double, cancel: Cancellation, progress: (Double) -> Void = { _ in },
        openBed: @escaping @Sendable (Int) throws(BedStreamError) -> BedReader?
    ) throws(SoundtrackError) -> LoudnessMeasurement {
        try withoutActuallyEscaping(progress) { progress throws(SoundtrackError) in
            try measure(plan: plan, targetLUFS: targetLUFS, cancel: cancel, report: ProgressReport(progress, totalFrames: plan.totalFrameCount), openBed: openBed)
        }
    }

    /// Frames metered by every half, and the caller's progress callback, which only the calling thread calls.
    private final class ProgressReport: @unchecked Sendable {
        // @unchecked: `progress` is only called on `caller`'s thread (checked with pthread_equal); the count is atomic.
        private let progress: (Double) -> Void
        private let caller = pthread_self()
        private let meteredFrames = Atomic<Int64>(0)
        private let totalFrames: Int64
        private var lastReported = -1.0

        init(_ progress: @escaping (Double) -> Void, totalFrames: Int64) {
            self.progress = progress
            self.totalFrames = max(1, totalFrames)
        }

        /// Counts `frameCount` more frames metered; on the calling thread, tells the callback the fraction done.
        func add(_ frameCount: Int) {
            let done = meteredFrames.add(Int64(frameCount), ordering: .relaxed).newValue
            guard pthread_equal(pthread_self(), caller) != 0 else { return }
            let fraction = Double(done) / Double(totalFrames)
            guard fraction - lastReported >= 0.01 || done >= totalFrames else { return }
            lastReported = fraction
            progress(min(1, fraction))
        }

        /// Tells the callback the pass is complete (on the calling thread, after the halves are joined).
        func finish() {
            if lastReported < 1 { progress(1) }
        }
    }

    private static func measure(
        plan: RenderPlan, targetLUFS: Double, cancel: Cancellation, report: ProgressReport,
        openBed: @escaping @Sendable (Int) throws(BedStreamError) -> BedReader?
    ) throws(SoundtrackError) -> LoudnessMeasurement {
        let (loudness, peak) = try meter(plan, cancel: cancel, report: report, openBed: openBed)
        report.finish()
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
        // (0.1 LU with a spoken guide): metered again at that gain (the bed read by fresh readers), and the gain
        // raised by the shortfall, as far as the peak allows.
        let quiet = ProgressReport({ _ in }, totalFrames: plan.totalFrameCount)
        let (limited, _) = try meter(gained, cancel: cancel, report: quiet) { half throws(BedStreamError) in try openBed(half + 2) }
        guard limited.isFinite else {
            return LoudnessMeasurement(measuredLUFS: loudness, peakDecibels: peak, gainDecibels: gain, targetLUFS: targetLUFS)
        }
        let loss = max(0, loudness + gain - limited)
        return LoudnessMeasurement(
            measuredLUFS: loudness, peakDecibels: peak, gainDecibels: min(gain + loss, max(gain, allowed)), targetLUFS: targetLUFS,
            limiterLossDecibels: loss)
    }

    /// Meters the whole render of `plan` in halves on two threads: its integrated loudness (LUFS) and sample
    /// peak (dBFS).
    private static func meter(
        _ plan: RenderPlan, cancel: Cancellation, report: ProgressReport,
        openBed: @escaping @Sendable (Int) throws(BedStreamError) -> BedReader?
    ) throws(SoundtrackError) -> (loudness: Double, peak: Double) {
        let totalFrames = plan.totalFrameCount
        // Two halves split on a block boundary; a session shorter than a few blocks is metered whole.
        let blocks = Int64(blockFrameCount)
        let seam = totalFrames > 8 * blocks ? (totalFrames / 2) / blocks * blocks : totalFrames
        let spans = seam < totalFrames ? [0..<seam, seam..<totalFrames] : [0..<totalFrames]
        let indexed = Array(spans.enumerated()).map { IndexedSpan(index: $0.offset, span: $0.element) }
        let outcomes = ParallelRunner.run(indexed, jobs: indexed.count) { item -> Result<Half, SoundtrackError> in
            do throws(SoundtrackError) {
                let bed: BedReader?
                do throws(BedStreamError) { bed = try openBed(item.index) } catch { throw .bed(error) }
                return .success(try meterSpan(item.span, plan: plan, bed: bed, cancel: cancel, report: report))
            } catch {
                return .failure(error)
            }
        }
        var halves: [Half] = []
        for outcome in outcomes {
            switch outcome {
            case let .success(half): halves.append(half)
            case let .failure(error): throw error
            }
        }
        let loudness = GatedLoudnessMeter.integratedLoudness(of: halves.map(\.meter))
        return (loudness, 20 * NagiMath.log10(Double(halves.map(\.peak).max() ?? 0)))
    }

    /// A stretch of the render and its place among the halves.
    private struct IndexedSpan: Sendable {
        var index: Int
        var span: Range<Int64>
    }

    /// One metered stretch of the render: its meter and its largest sample magnitude.
    private struct Half: @unchecked Sendable {
        var meter: GatedLoudnessMeter
        var peak: Float
    }

    /// Renders the frames in `span` (seeking to its start) into a meter, slice by slice: each slice of
    /// `Soundtrack.sliceFrameCount` frames K-weighted as a written file's slices are (`LoudnessSlice`: two
    /// segments in lockstep where the machine has AVX), then completed in order by the meter.
    private static func meterSpan(_ span: Range<Int64>, plan: RenderPlan, bed: BedReader?, cancel: Cancellation, report: ProgressReport) throws(SoundtrackError) -> Half {
        let renderer = Renderer(plan: plan, bed: bed)
        let channelCount = plan.settings.channelCount
        let meter = GatedLoudnessMeter(channelCount: channelCount, sampleRate: plan.sampleRate)
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
        if let failure = bed?.failure { throw .bed(failure) }
        return Half(meter: meter, peak: peak)
    }
}
