import AudioFile
import Breath
import Foundation
import NagiDocuments
import NagiPresets
import NagiTestSupport
import Synth
import Testing

/// A long session from end to end: every boundary exact, the sound clean and alive, memory flat.
///
/// CI runs `NAGI_LONG_SESSION_MINUTES` (default 10) in debug; `scripts/long-session.sh` runs 12 hours in
/// release. Lengths and speeds are printed as `long-session:` lines for the script, never asserted on time.
@Suite("A long session stays exact, clean and flat", .serialized)
struct LongSessionTests {
    static let environment = ProcessInfo.processInfo.environment
    static var minutes: Int { environment["NAGI_LONG_SESSION_MINUTES"].flatMap(Int.init) ?? 10 }
    /// Odd microseconds, so boundaries fall between frames at 48 kHz: a schedule that added rounded phase
    /// lengths would drift by hours' end, and the onsets below would show it.
    static let pattern = "4.000013-7.000007-8.000011"
    static let sampleRate = 48_000
    static let seed: UInt64 = 7
    /// −1 dBFS.
    static let ceiling = Float(0.891_250_9)

    /// What one pass over the session found.
    struct Findings {
        var nonFiniteSamples = 0
        var peak: Float = 0
        /// Frames from each phase start to the first frame its cue changes, by phase index.
        var onsetOffsets: [Int64?]
        /// Phase starts where a cue was still sounding within the quiet guard before them.
        var cuesSoundingBeforeStart = 0
        /// The quietest 1 s RMS of the cue-less sound after the first phase, in dBFS, and where.
        var quietestSecondDecibels = Double.infinity
        var quietestSecondFrame: Int64 = 0
        /// RMS of the first and the last full minute of the session, in dBFS.
        var firstMinuteDecibels = 0.0
        var lastMinuteDecibels = 0.0
        /// Seconds of synthesis (both renders) per hour of audio, in each twelfth of the session.
        var secondsPerHour: [Double] = []
        /// The rendered (with cues) samples around the chosen phase starts, by start frame.
        var windows: [Int64: [Float]] = [:]
    }

    /// The frames kept around a phase start: 50 ms before it (none before frame 0) to 200 ms after.
    static func window(around start: Int64) -> Range<Int64> {
        max(0, start - 2_400)..<(start + 9_600)
    }

    @Test("a long session: cue onsets on their frames from first to last, no NaN, peak ≤ −1 dBFS, never silent; the file matches; memory flat")
    func longSession() throws {
        let minutes = Self.minutes
        let session = try Session(pattern: InlinePattern.parse(Self.pattern)).withLength(.duration(microseconds: Int64(minutes) * 60_000_000))
        let schedule = try Schedule(session: session, sampleRate: Self.sampleRate)
        let soundscape = try Soundscape.decode(text: try #require(BuiltinPresets.files["soundscapes/horizon.json"]), file: "horizon.json")
        let starts = schedule.phases.map(\.startFrame)
        let checkedStarts = Array(starts.prefix(3)) + Array(starts.suffix(3))

        // The binary writes the file (FLAC: a 12-hour WAV would pass 4 GiB), and a tenth as long for memory.
        let folder = try NagiProcess.temporaryFolder()
        // Twelve hours of FLAC is gigabytes: never leave it behind.
        defer { try? FileManager.default.removeItem(at: folder) }
        let short = try Self.renderWithBinary(minutes: max(1, minutes / 10), to: folder.appendingPathComponent("short.flac"))
        let long = try Self.renderWithBinary(minutes: minutes, to: folder.appendingPathComponent("long.flac"))
        let findings = Self.analyse(schedule: schedule, soundscape: soundscape, keeping: checkedStarts)

        let fiveMilliseconds = Int64(Self.sampleRate / 200)
        let offsets = findings.onsetOffsets.compactMap { $0 }
        #expect(offsets.count == starts.count, "\(starts.count - offsets.count) of \(starts.count) phases had no cue")
        let firstOffset = try #require(offsets.first)
        #expect(firstOffset >= 0 && firstOffset <= fiveMilliseconds)
        // The same offset at every phase start, the last as the first: nothing drifts. Every clip enters through its
        // placement's raised-cosine fade (`ClipEdgeFade`, issue 54), whose first samples are too small for the mix's
        // Floats to resolve above the sea beneath: the first differing frame lands a few frames into the fade, by
        // how loud the sea is there. So the onsets agree within 0.25 ms (as a tick's do in GuideRenderTests), where
        // a boundary drifting by one frame an hour would walk out of it over the session.
        let quarterMillisecond = Int64(Self.sampleRate / 4000)
        let drifted = offsets.enumerated().filter { abs($0.element - firstOffset) > quarterMillisecond }
        #expect(drifted.isEmpty, "\(drifted.count) onsets differ from the first (\(firstOffset) frames) by more than 0.25 ms, e.g. phase \(drifted.first?.offset ?? -1)")
        #expect(offsets.allSatisfy { $0 >= 0 && $0 <= fiveMilliseconds })
        #expect(findings.cuesSoundingBeforeStart == 0)
        #expect(findings.nonFiniteSamples == 0)
        #expect(findings.peak <= Self.ceiling, "peak \(20 * log10(findings.peak)) dBFS")
        // Calmed, not silent: the quietest second of the tone and water stays clearly audible.
        #expect(findings.quietestSecondDecibels > -45, "quietest second \(findings.quietestSecondDecibels) dBFS at frame \(findings.quietestSecondFrame)")
        #expect(findings.lastMinuteDecibels < findings.firstMinuteDecibels, "the session grew no calmer")

        // The file is that sound: its length, and the frames around its first and last phase starts.
        let info = try AudioFileReader.info(path: long.path)
        let fileBytes = (try? FileManager.default.attributesOfItem(atPath: long.path)[.size] as? Int) ?? 0
        let renderer = Renderer(schedule: schedule, soundscape: soundscape, channelCount: 2, cuesEnabled: true, seed: Self.seed)
        #expect(info.frameCount == renderer.totalFrameCount)
        var largestDifference: Float = 0
        for start in checkedStarts {
            let expected = try #require(findings.windows[start])
            let window = Self.window(around: start)
            let read = try AudioFileReader.readFloat(path: long.path, startFrame: window.lowerBound, frameCount: window.count)
            #expect(read.count == expected.count)
            for (a, b) in zip(read, expected) { largestDifference = max(largestDifference, abs(a - b)) }
        }
        // 16-bit quantisation, nothing more.
        #expect(largestDifference <= 1.5 / 32_768, "file differs from the render by \(largestDifference * 32_768) steps")

        // Memory flat: ten times the length costs no more than a few MiB more at its peak. Not under
        // AddressSanitizer (scripts/sanitizers.sh says so): its quarantine holds every freed block, up to
        // 256 MB, so a debug build's short-lived temporaries pile up with the length they are freed over.
        #expect(short.peakKilobytes > 0 && long.peakKilobytes > 0, "no memory figure was read")
        if Self.environment["NAGI_SANITIZER"] != "address" {
            #expect(long.peakKilobytes <= short.peakKilobytes + 4_096, "peak RSS \(short.peakKilobytes) KiB for \(short.minutes) min, \(long.peakKilobytes) KiB for \(long.minutes) min")
        }

        let audioHours = Double(schedule.totalFrames) / Double(Self.sampleRate) / 3600
        print("long-session: \(minutes) min, \(starts.count) phases, last phase start frame \(starts.last ?? 0), onset +\(firstOffset) frames at every phase start")
        print("long-session: peak \(String(format: "%.2f", 20 * log10(Double(findings.peak)))) dBFS, non-finite samples \(findings.nonFiniteSamples), quietest second \(String(format: "%.1f", findings.quietestSecondDecibels)) dBFS at \(String(format: "%.0f", Double(findings.quietestSecondFrame) / Double(Self.sampleRate))) s, first minute \(String(format: "%.1f", findings.firstMinuteDecibels)) dBFS, last minute \(String(format: "%.1f", findings.lastMinuteDecibels)) dBFS")
        print("long-session: file \(info.frameCount) frames, \(fileBytes / 1_000_000) MB; vs the render at the first and last 3 phase starts: \(String(format: "%.2f", largestDifference * 32_768)) 16-bit steps at most")
        for run in [short, long] {
            print("long-session: nagi render \(run.minutes) min FLAC: \(String(format: "%.2f", run.seconds)) s wall, \(String(format: "%.0f", Double(run.minutes) * 60 / run.seconds))x real time, \(String(format: "%.1f", run.seconds / (Double(run.minutes) / 60))) s per audio hour, peak RSS \(run.peakKilobytes) KiB")
        }
        print("long-session: synthesis (two renders) seconds per audio hour in each twelfth of \(String(format: "%.2f", audioHours)) h: \(findings.secondsPerHour.map { String(format: "%.2f", $0) }.joined(separator: " "))")
    }

    /// A finished `nagi render` run.
    struct BinaryRun {
        var path: String
        var minutes: Int
        var seconds: Double
        var peakKilobytes: Int
    }

    static func renderWithBinary(minutes: Int, to file: URL) throws -> BinaryRun {
        let started = Date()
        let process = try ChildProcess(
            NagiProcess.executableURL.path,
            ["render", pattern, "--minutes", String(minutes), "--soundscape", "horizon", "--seed", String(seed), "--quiet", "-o", file.path],
            environment: ["PATH": "/usr/bin:/bin", "HOME": file.deletingLastPathComponent().path], measuresPeakMemory: true)
        #expect(process.wait(seconds: 7_200))
        #expect(process.exitStatus == 0)
        return BinaryRun(path: file.path, minutes: minutes, seconds: Date().timeIntervalSince(started), peakKilobytes: process.peakResidentKilobytes)
    }

    /// Renders the session twice in step, with cues and without, and measures as it goes: the cue alone is
    /// the difference of the two, so its first frame after each phase start is the onset.
    static func analyse(schedule: Schedule, soundscape: Soundscape, keeping keptStarts: [Int64]) -> Findings {
        let withCues = Renderer(schedule: schedule, soundscape: soundscape, channelCount: 2, cuesEnabled: true, seed: seed)
        let withoutCues = Renderer(schedule: schedule, soundscape: soundscape, channelCount: 2, cuesEnabled: false, seed: seed)
        let starts = schedule.phases.map(\.startFrame)
        var findings = Findings(onsetOffsets: Array(repeating: nil, count: starts.count))
        let blockFrames = 4_096
        var cued = [Float](repeating: 0, count: blockFrames * 2)
        var plain = [Float](repeating: 0, count: blockFrames * 2)

        let rate = Int64(sampleRate)
        let quietGuard = rate / 4
        let sessionEnd = schedule.totalFrames
        let firstPhaseEnd = starts.count > 1 ? starts[1] : sessionEnd
        let lastMinuteStart = max(0, sessionEnd - 60 * rate)
        var nextStartIndex = 0
        var pendingPhase: Int?
        var lastDifferingFrame = Int64.min / 2
        var secondEnergy = 0.0
        var firstMinuteEnergy = 0.0
        var lastMinuteEnergy = 0.0
        let twelfths = 12
        var synthesisSeconds = [Double](repeating: 0, count: twelfths)

        var frame: Int64 = 0
        while frame < sessionEnd {
            let count = Int(min(Int64(blockFrames), sessionEnd - frame))
            let synthesisStarted = Date()
            cued.withUnsafeMutableBufferPointer { withCues.render(into: $0, frameCount: count) }
            plain.withUnsafeMutableBufferPointer { withoutCues.render(into: $0, frameCount: count) }
            synthesisSeconds[Int(frame * Int64(twelfths) / sessionEnd)] += Date().timeIntervalSince(synthesisStarted)

            for index in 0..<count {
                let current = frame + Int64(index)
                let left = cued[2 * index]
                let right = cued[2 * index + 1]
                if !left.isFinite || !right.isFinite { findings.nonFiniteSamples += 1 }
                findings.peak = max(findings.peak, abs(left), abs(right))

                while nextStartIndex < starts.count, starts[nextStartIndex] == current {
                    if current - lastDifferingFrame <= quietGuard { findings.cuesSoundingBeforeStart += 1 }
                    pendingPhase = nextStartIndex
                    nextStartIndex += 1
                }
                if left != plain[2 * index] || right != plain[2 * index + 1] {
                    lastDifferingFrame = current
                    if let phase = pendingPhase {
                        findings.onsetOffsets[phase] = current - starts[phase]
                        pendingPhase = nil
                    }
                }

                let energy = Double(plain[2 * index]) * Double(plain[2 * index])
                if current < 60 * rate { firstMinuteEnergy += energy }
                if current >= lastMinuteStart { lastMinuteEnergy += energy }
                if current >= firstPhaseEnd {
                    secondEnergy += energy
                    if (current - firstPhaseEnd + 1) % rate == 0 {
                        let decibels = 10 * log10(secondEnergy / Double(rate))
                        if decibels < findings.quietestSecondDecibels {
                            findings.quietestSecondDecibels = decibels
                            findings.quietestSecondFrame = current + 1 - rate
                        }
                        secondEnergy = 0
                    }
                }
            }

            for start in keptStarts {
                let overlap = window(around: start).clamped(to: frame..<(frame + Int64(count)))
                guard !overlap.isEmpty else { continue }
                let from = Int(overlap.lowerBound - frame) * 2
                let to = Int(overlap.upperBound - frame) * 2
                findings.windows[start, default: []] += cued[from..<to]
            }

            frame += Int64(count)
        }
        let twelfthHours = Double(sessionEnd) / Double(twelfths) / Double(rate) / 3_600
        findings.secondsPerHour = synthesisSeconds.map { $0 / twelfthHours }
        findings.firstMinuteDecibels = 10 * log10(firstMinuteEnergy / Double(min(sessionEnd, 60 * rate)))
        findings.lastMinuteDecibels = 10 * log10(lastMinuteEnergy / Double(sessionEnd - lastMinuteStart))
        return findings
    }
}
