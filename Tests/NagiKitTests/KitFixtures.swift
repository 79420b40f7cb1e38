import NagiPresets
import AudioFile
import Foundation
import NagiKit
import NagiTestSupport

/// What the NagiKit tests share: sessions, soundscapes, a bed written through libsndfile, whole renders.
enum KitFixtures {
    /// Every built-in soundscape's name.
    static let soundscapeNames = BuiltinPresets.files.keys
        .filter { $0.hasPrefix("soundscapes/") && $0.hasSuffix(".json") }
        .map { String($0.dropFirst("soundscapes/".count).dropLast(".json".count)) }
        .sorted()

    /// The schedule of `pattern` for `cycles` cycles at `sampleRate`.
    static func schedule(_ pattern: String = "4-7-8", cycles: Int = 1, sampleRate: Int = 48_000) throws -> Schedule {
        try Schedule(session: BuiltinLibrary.session(named: pattern).withLength(.cycles(cycles)), sampleRate: sampleRate)
    }

    /// A stereo 44.1 kHz FLAC bed of `seconds`: a slow 220 Hz / 330 Hz chord with a little seeded noise, so a
    /// wrong read position shows in every sample.
    static func writeBed(in folder: TemporaryFolder, seconds: Double = 7.3, channelCount: Int = 2, name: String = "bed.flac") throws -> String {
        let rate = 44_100
        let frames = Int(seconds * Double(rate))
        var generator = SeededGenerator(seed: 7)
        var samples = [Float](repeating: 0, count: frames * channelCount)
        for frame in 0..<frames {
            let time = Double(frame) / Double(rate)
            for channel in 0..<channelCount {
                let tone = 0.3 * sin(2 * Double.pi * (channel == 0 ? 220 : 330) * time)
                samples[frame * channelCount + channel] = Float(tone + 0.05 * Double.random(in: -1...1, using: &generator))
            }
        }
        let path = folder.file(name)
        let writer = try AudioFileWriter(path: path, spec: AudioFileSpec(sampleRate: rate, channelCount: channelCount, format: .flac), overwrite: false)
        try samples.withUnsafeBufferPointer { try writer.write($0) }
        try writer.commit()
        return path
    }

    /// Every frame of `renderer` from where it stands to the end, in blocks of `blockFrames`.
    static func renderToEnd(_ renderer: SoundtrackRenderer, blockFrames: Int = 4096) -> [Float] {
        let channels = renderer.channelCount
        var output: [Float] = []
        var block = [Float](repeating: 0, count: blockFrames * channels)
        while renderer.nextFrame < renderer.totalFrameCount {
            let frames = Int(min(Int64(blockFrames), renderer.totalFrameCount - renderer.nextFrame))
            block.withUnsafeMutableBufferPointer { renderer.render(into: $0, frameCount: frames) }
            output += block[0..<(frames * channels)]
        }
        return output
    }

    /// `frameCount` frames of `renderer` from where it stands.
    static func render(_ renderer: SoundtrackRenderer, frameCount: Int) -> [Float] {
        var block = [Float](repeating: 0, count: frameCount * renderer.channelCount)
        block.withUnsafeMutableBufferPointer { renderer.render(into: $0, frameCount: frameCount) }
        return block
    }
}
