import Synth
import AudioFile
import Foundation
import LoudnessReference
@testable import NagiKit
import NagiTestSupport
import Testing

/// The engine in process: prepare once, then pull, seek and write, as an app would use it.
@Suite("NagiKit: a soundtrack prepared once, then pulled, sought in and written")
struct SoundtrackPipelineTests {
    @Test("seek lands on exactly the samples a render from frame 0 gives, at 20 random frames, on every soundscape with a bed and a spoken guide",
          arguments: KitFixtures.soundscapeNames)
    func seekEqualsRenderFromZero(soundscapeName: String) throws {
        let folder = try TemporaryFolder()
        let bed = try KitFixtures.writeBed(in: folder)
        let request = SoundtrackRequest(
            schedule: try KitFixtures.schedule(cycles: 2), soundscape: try BuiltinLibrary.soundscape(named: soundscapeName),
            guide: .init(cues: .both, count: .ticks), bed: .init(path: bed, levelDecibels: -6))
        let soundtrack = try Soundtrack.prepare(request)
        let whole = KitFixtures.renderToEnd(try soundtrack.makeRenderer(), blockFrames: 1000)
        #expect(whole.count == Int(soundtrack.totalFrameCount) * 2)
        let seeking = try soundtrack.makeRenderer()
        var generator = SeededGenerator(seed: 19)
        let length = 3000
        // Forwards and backwards, on and off the 64-frame control blocks.
        for _ in 0..<20 {
            let frame = Int64.random(in: 0..<(soundtrack.totalFrameCount - Int64(length)), using: &generator)
            seeking.seek(toFrame: frame)
            let got = KitFixtures.render(seeking, frameCount: length)
            let start = Int(frame) * 2
            let expected = Array(whole[start..<(start + length * 2)])
            let firstDifference = zip(got, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            #expect(firstDifference == nil, "\(soundscapeName): seek to \(frame) differs at sample \(firstDifference ?? -1)")
        }
        #expect(seeking.bedFailure == nil, "\(seeking.bedFailure?.message ?? "")")
    }

    @Test("planar buffers carry the same samples as interleaved ones, channel by channel")
    func planarEqualsInterleaved() throws {
        let soundtrack = try Soundtrack.prepare(SoundtrackRequest(schedule: try KitFixtures.schedule(), soundscape: try BuiltinLibrary.soundscape(named: "horizon")))
        let interleaved = KitFixtures.render(try soundtrack.makeRenderer(), frameCount: 48_000)
        let planar = try soundtrack.makeRenderer()
        var left = [Float](repeating: 0, count: 48_000), right = left
        left.withUnsafeMutableBufferPointer { leftPlane in
            right.withUnsafeMutableBufferPointer { rightPlane in
                // Odd block sizes, so the staging inside the renderer is crossed.
                var done = 0
                for size in [777, 64, 10_000, 1] + Array(repeating: 9_000, count: 5) where done < 48_000 {
                    let frames = min(size, 48_000 - done)
                    planar.render(planes: [UnsafeMutableBufferPointer(rebasing: leftPlane[done..<(done + frames)]),
                                           UnsafeMutableBufferPointer(rebasing: rightPlane[done..<(done + frames)])], frameCount: frames)
                    done += frames
                }
            }
        }
        #expect(left == stride(from: 0, to: interleaved.count, by: 2).map { interleaved[$0] })
        #expect(right == stride(from: 1, to: interleaved.count, by: 2).map { interleaved[$0] })
        #expect(Signal.rms(left) > 0.01, "the planes hold sound")
    }

    @Test("a loudness target binds one gain to the calibrated plan: no table rebuilt, the samples those of a plan compiled with that gain")
    func loudnessRebindsWithoutRecompiling() throws {
        let folder = try TemporaryFolder()
        let bed = try KitFixtures.writeBed(in: folder, channelCount: 1)
        var request = SoundtrackRequest(
            schedule: try KitFixtures.schedule(cycles: 2), soundscape: try BuiltinLibrary.soundscape(named: "horizon"),
            guide: .init(cues: .voice), bed: .init(path: bed))
        let calibrated = try Soundtrack.prepare(request)
        request.loudnessTargetLUFS = -16
        let loud = try Soundtrack.prepare(request)
        let measurement = try #require(loud.loudness)
        #expect(measurement.gainDecibels > 0.5, "a -16 LUFS target lifts the calibrated soundtrack (bed and voice included)")
        let rebound = calibrated.plan.withLoudnessGain(decibels: measurement.gainDecibels)
        #expect(rebound.sharesTables(with: calibrated.plan))
        #expect(!RenderPlan(schedule: calibrated.schedule, settings: calibrated.settings).sharesTables(with: calibrated.plan), "a compile builds its own tables")
        var compiledSettings = calibrated.settings
        compiledSettings.loudnessGainDecibels = measurement.gainDecibels
        #expect(loud.settings == compiledSettings)
        // The prepared loud soundtrack and a freshly compiled plan with the same gain sound the same.
        let fromPrepared = KitFixtures.renderToEnd(try loud.makeRenderer())
        let compiled = RenderPlan(schedule: calibrated.schedule, settings: compiledSettings)
        let bedReader = try BedReader(path: bed, sampleRate: 48_000, channelCount: 2)
        let reference = Renderer(plan: compiled, bed: bedReader)
        var fromCompiled = [Float](repeating: 0, count: fromPrepared.count)
        fromCompiled.withUnsafeMutableBufferPointer { reference.render(into: $0, frameCount: Int(compiled.totalFrameCount)) }
        #expect(fromPrepared == fromCompiled)
        // And louder than the calibrated one by about the gain, where the limiter leaves it alone.
        let quiet = KitFixtures.renderToEnd(try calibrated.makeRenderer())
        let ratio = 20 * log10(Signal.rms(fromPrepared) / Signal.rms(quiet))
        #expect(abs(ratio - measurement.gainDecibels) < 0.5, "\(ratio) dB louder for a \(measurement.gainDecibels) dB gain")
        // What a meter reads of the rendered file: the target (or, held down by the peak, what the pass said it
        // would reach), not just the figure the pass reported.
        let meter = try LoudnessMeter(channelCount: 2, sampleRate: 48_000, measuresTruePeak: false)
        try meter.add(fromPrepared)
        let rendered = try meter.integratedLoudness()
        #expect(abs(rendered - measurement.reachedLUFS) < 0.1, "rendered \(rendered) LUFS, the pass promised \(measurement.reachedLUFS)")
        #expect(measurement.fallsShort || abs(rendered - -16) < 0.1, "rendered \(rendered) LUFS for a -16 target")
    }

    @Test("write puts the soundtrack in a file through libsndfile, sample for sample what the renderer pulls")
    func writeEqualsPulled() throws {
        let folder = try TemporaryFolder()
        let soundtrack = try Soundtrack.prepare(SoundtrackRequest(schedule: try KitFixtures.schedule(), soundscape: try BuiltinLibrary.soundscape(named: "night"), channelCount: 1))
        let path = folder.file("out.wav")
        var fractions: [Double] = []
        let report = try soundtrack.write(
            to: .file(path: path, overwrite: false),
            spec: AudioFileSpec(sampleRate: 48_000, channelCount: 1, format: .wav, encoding: .float), progress: { fractions.append($0) })
        #expect(report.frameCount == soundtrack.totalFrameCount)
        #expect(report.byteCount > Int64(report.frameCount) * 4)
        #expect(fractions.last == 1 && fractions == fractions.sorted())
        let read = try AudioFileReader.readFloat(path: path)
        #expect(read == KitFixtures.renderToEnd(try soundtrack.makeRenderer()))
        #expect(folder.contents == ["out.wav"], "no temporary file left beside it")
    }

    /// A short looping bed is read whole while the soundtrack is prepared, and every write (and `makeRenderer`) reads
    /// it from there: each write, on 1 to 3 threads, and the soundtrack's own renderer are sample for sample what a
    /// renderer that opens and loops the bed itself pulls. A bed the session never loops is not held (each write
    /// streams it), nor one prepared with `holdsBed: false`, and each sounds the same way.
    @Test("a short bed is held while preparing; writes from it equal a renderer reading the bed itself")
    func preparedHeldBedWritesTheBedsOwnSamples() throws {
        let folder = try TemporaryFolder()
        let short = try KitFixtures.writeBed(in: folder, seconds: 7.3, name: "short.flac")
        let long = try KitFixtures.writeBed(in: folder, seconds: 40, name: "long.flac")
        let schedule = try KitFixtures.schedule(cycles: 1)
        for (bed, heldExpected) in [(short, true), (long, false)] {
            let soundtrack = try Soundtrack.prepare(SoundtrackRequest(
                schedule: schedule, soundscape: try BuiltinLibrary.soundscape(named: "horizon"), bed: .init(path: bed, levelDecibels: -6)))
            #expect((soundtrack.heldBed != nil) == heldExpected, "\(bed): held while preparing: \(soundtrack.heldBed != nil)")
            let reference = KitFixtures.renderToEnd(SoundtrackRenderer(plan: soundtrack.plan, bed: try BedReader(path: bed, sampleRate: 48_000, channelCount: 2)))
            #expect(reference.contains { $0 != 0 })
            for threads in 1...3 {
                let path = folder.file("out-\(threads).wav")
                _ = try soundtrack.write(
                    to: .file(path: path, overwrite: true),
                    spec: AudioFileSpec(sampleRate: 48_000, channelCount: 2, format: .wav, encoding: .float), threads: threads)
                let sameSamples = try AudioFileReader.readFloat(path: path) == reference
                #expect(sameSamples, "\(bed), \(threads) threads: the write equals the renderer reading the bed itself")
            }
            let pulled = KitFixtures.renderToEnd(try soundtrack.makeRenderer()) == reference
            #expect(pulled, "\(bed): the soundtrack's renderer equals the renderer reading the bed itself")
            // A caller that keeps many soundtracks (a course export) asks for no held copy: the writes read the bed.
            let unheld = try Soundtrack.prepare(SoundtrackRequest(
                schedule: schedule, soundscape: try BuiltinLibrary.soundscape(named: "horizon"), bed: .init(path: bed, levelDecibels: -6)), holdsBed: false)
            #expect(unheld.heldBed == nil)
            let path = folder.file("unheld.wav")
            _ = try unheld.write(to: .file(path: path, overwrite: true), spec: AudioFileSpec(sampleRate: 48_000, channelCount: 2, format: .wav, encoding: .float), threads: 2)
            let unheldSamples = try AudioFileReader.readFloat(path: path) == reference
            #expect(unheldSamples, "\(bed): the write of a soundtrack that holds nothing equals the renderer reading the bed itself")
        }
    }
}
