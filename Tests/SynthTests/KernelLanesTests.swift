import Breath
import NagiTestSupport
@testable import Synth
import Testing

/// The plain kernel in AVX's lanes (`SynthKernel.renderInLanes`, C) against Swift's loops (`SynthKernel.render`):
/// the same bits for every sample, block by block on every branch and over whole renders of every soundscape.
/// A term grouped otherwise, a constant a bit off or a fused multiply-add shows as a differing sample.
@Suite("The synthesis kernel in AVX lanes", .enabled(if: SynthKernel.lanesAvailable, "this machine has no AVX"))
struct KernelLanesTests {
    /// Random tables and blocks (phases up to 2²⁰ turns, gains ±1, read positions anywhere in the tables), with
    /// and without a bed: each branch's output and scratch equal Swift's loops followed by `BedVoice`'s mix
    /// (`output + bed × gain`) to the bit, in whole blocks and ragged ones.
    @Test("block by block: every branch, every frame count", arguments: Branch.all)
    func blocksAgreeToTheBit(branch: Branch) {
        let (stereo, rain, bed) = (branch.stereo, branch.rain, branch.bed)
        var generator = SeededGenerator(seed: (stereo ? 11 : 12) + (rain ? 10 : 20) + (bed ? 100 : 200))
        let tableLength = 4096
        let tables = (0..<4).map { _ in (0..<tableLength).map { _ in generator.nextSignedUnit() } }
        let ramp = (0..<64).map(Float.init)
        let triangle = (0..<64).map { Float($0 * ($0 - 1) / 2) }
        let guide = (0..<64).map { _ in 0.3 * generator.nextSignedUnit() }
        let bedFrames = bed ? (0..<128).map { _ in 0.5 * generator.nextSignedUnit() } : nil
        var constants = SynthKernel.Constants(water: (0, 0, 0, 0, 0), skyDifference: (0, 0, 0, 0, 0), trail: (0, 0, 0, 0), waterWidth: 0, rainWidth: 0)
        constants.water = (generator.nextSignedUnit(), generator.nextSignedUnit(), generator.nextSignedUnit(), generator.nextSignedUnit(), generator.nextSignedUnit())
        constants.skyDifference = (generator.nextSignedUnit(), generator.nextSignedUnit(), generator.nextSignedUnit(), generator.nextSignedUnit(), generator.nextSignedUnit())
        constants.trail = (generator.nextSignedUnit(), generator.nextSignedUnit(), generator.nextSignedUnit(), generator.nextSignedUnit())
        constants.waterWidth = generator.nextSignedUnit()
        constants.rainWidth = generator.nextSignedUnit()

        var differing = 0
        var compared = 0
        for frameCount in [64, 63, 57, 8, 7, 1] {
            for _ in 0..<50 {
                var block = SynthKernel.Block(from: .init(), to: .init(), frames: 64)
                block.tonePhase = generator.nextSignedUnit() * 1_048_576
                block.toneIncrement = Ramp(value: 0.01 * generator.nextSignedUnit(), slope: 1e-6 * generator.nextSignedUnit())
                block.sky = Ramp(value: generator.nextSignedUnit(), slope: 0.01 * generator.nextSignedUnit())
                block.toneGain = Ramp(value: generator.nextSignedUnit(), slope: 0.01 * generator.nextSignedUnit())
                block.trailPhase = generator.nextSignedUnit() * 1000
                block.trailIncrement = Ramp(value: 0.01 * generator.nextSignedUnit(), slope: 1e-6 * generator.nextSignedUnit())
                block.trailGain = Ramp(value: generator.nextSignedUnit(), slope: 0.01 * generator.nextSignedUnit())
                block.darkGain = Ramp(value: generator.nextSignedUnit(), slope: 0.01 * generator.nextSignedUnit())
                block.brightGain = Ramp(value: generator.nextSignedUnit(), slope: 0.01 * generator.nextSignedUnit())
                block.rainGain = Ramp(value: generator.nextSignedUnit(), slope: 0.01 * generator.nextSignedUnit())
                block.waterMid = Int.random(in: 0...(tableLength - 64), using: &generator)
                block.waterSide = Int.random(in: 0...(tableLength - 64), using: &generator)
                block.rainMid = Int.random(in: 0...(tableLength - 64), using: &generator)
                block.rainSide = Int.random(in: 0...(tableLength - 64), using: &generator)
                let bedGain = Ramp(value: generator.nextSignedUnit(), slope: 0.01 * generator.nextSignedUnit())
                let (swift, lanes) = Self.renderBothWays(
                    block, constants: constants, tables: tables, ramp: ramp, triangle: triangle, guide: guide,
                    frameCount: frameCount, stereo: stereo, rain: rain, bed: bedFrames, bedGain: bedGain)
                compared += swift.count
                differing += zip(swift, lanes).filter { $0.bitPattern != $1.bitPattern }.count
            }
        }
        #expect(differing == 0, "\(differing) of \(compared) samples differ from Swift's loops")
    }

    /// One of the lane kernel's eight last passes.
    struct Branch: CustomTestStringConvertible, Sendable {
        var stereo: Bool
        var rain: Bool
        var bed: Bool
        static let all = [true, false].flatMap { stereo in
            [true, false].flatMap { rain in [true, false].map { Branch(stereo: stereo, rain: rain, bed: $0) } }
        }
        var testDescription: String { "\(stereo ? "stereo" : "mono"), \(rain ? "rain" : "no rain"), \(bed ? "a bed" : "no bed")" }
    }

    /// Whole renders with chimes and a bed (held in memory, ducked under spoken clips) of each built-in soundscape
    /// (rain's included), stereo and mono: the renderer with its lanes on writes exactly what it writes with them off.
    @Test("whole renders: lanes on and off give the same samples", arguments: SoundscapeChoice.builtinNames, [2, 1])
    func rendersAgreeToTheBit(name: String, channels: Int) throws {
        func render(lanes: Bool) throws -> [Float] {
            // No beat: a beat takes Swift's loops either way. Ticks, spoken clips and the bed as SeekTests sets them.
            let setup = SeekTests.Setup(soundscape: name, channels: channels, beat: .binaural, bedSeconds: 3)
            let renderer = try SeekTests.renderer(setup, withBeat: false)
            renderer.usesKernelLanes = lanes
            return Fixtures.render(renderer)
        }
        let swift = try render(lanes: false)
        let lanes = try render(lanes: true)
        #expect(swift.count == lanes.count)
        let differing = zip(swift, lanes).filter { $0.bitPattern != $1.bitPattern }.count
        #expect(differing == 0, "\(name), \(channels) channels: \(differing) of \(swift.count) samples differ")
        #expect(swift.contains { $0 != 0 }, "the render must sound")
    }

    /// One block through Swift's loops (then the bed added as `BedVoice.mix` adds it) and through the lanes, from
    /// the same inputs: each one's output (interleaved when stereo) followed by its mid scratch.
    static func renderBothWays(
        _ block: SynthKernel.Block, constants: SynthKernel.Constants, tables: [[Float]], ramp: [Float], triangle: [Float],
        guide: [Float], frameCount: Int, stereo: Bool, rain: Bool, bed: [Float]?, bedGain: Ramp
    ) -> (swift: [Float], lanes: [Float]) {
        let channels = stereo ? 2 : 1
        func run(lanes: Bool) -> [Float] {
            var output = [Float](repeating: .nan, count: 64 * channels)
            var mid = [Float](repeating: .nan, count: 64)
            var pad = [Float](repeating: .nan, count: 64)
            var beat = [Float](repeating: 0, count: 64)
            tables[0].withUnsafeBufferPointer { dark in
                tables[1].withUnsafeBufferPointer { bright in
                    tables[2].withUnsafeBufferPointer { rainTable in
                        ramp.withUnsafeBufferPointer { ramp in
                            triangle.withUnsafeBufferPointer { triangle in
                                guide.withUnsafeBufferPointer { guide in
                                    beat.withUnsafeMutableBufferPointer { beat in
                                        let kernelTables = SynthKernel.Tables(
                                            ramp: ramp.baseAddress!, triangle: triangle.baseAddress!, waterDark: dark.baseAddress!,
                                            waterBright: bright.baseAddress!, rain: rainTable.baseAddress!, guide: guide.baseAddress!,
                                            beat: beat.baseAddress!)
                                        output.withUnsafeMutableBufferPointer { output in
                                            mid.withUnsafeMutableBufferPointer { mid in
                                                pad.withUnsafeMutableBufferPointer { pad in
                                                    if lanes {
                                                        var render = SynthKernel.laneRender(constants: constants, tables: kernelTables)
                                                        bed.withUnsafeBufferPointerIfPresent { bed in
                                                            SynthKernel.renderInLanes(
                                                                block, render: &render, frameCount: frameCount, output: output.baseAddress!,
                                                                mid: mid.baseAddress!, padCosine: pad.baseAddress!, stereo: stereo, rain: rain,
                                                                bed: bed, bedGain: bedGain)
                                                        }
                                                    } else {
                                                        SynthKernel.render(
                                                            block, constants: constants, tables: kernelTables, frameCount: frameCount,
                                                            output: output.baseAddress!, mid: mid.baseAddress!, padCosine: pad.baseAddress!,
                                                            stereo: stereo, rain: rain)
                                                        if let bed {
                                                            // BedVoice.mix's expression (BedVoiceTests holds it to this).
                                                            for index in 0..<(frameCount * channels) {
                                                                output[index] += bed[index] * bedGain.at(ramp[index / channels])
                                                            }
                                                        }
                                                    }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            return Array(output[0..<(frameCount * channels)]) + Array(mid[0..<frameCount])
        }
        return (run(lanes: false), run(lanes: true))
    }
}

private extension Optional where Wrapped == [Float] {
    /// `body` with the array's buffer's start, or with nil when there is no array.
    func withUnsafeBufferPointerIfPresent<Result>(_ body: (UnsafePointer<Float>?) -> Result) -> Result {
        guard let array = self else { return body(nil) }
        return array.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}
