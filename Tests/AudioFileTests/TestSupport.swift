import Foundation
import Glibc
import NagiTestSupport

@testable import AudioFile

/// Test signals, deterministic.
enum TestSignal {
    /// A sine on every channel (each channel a little higher), interleaved, at `amplitude`.
    static func sine(frames: Int, channelCount: Int, sampleRate: Int, amplitude: Float = 0.5) -> [Float] {
        var samples = [Float](repeating: 0, count: frames * channelCount)
        for frame in 0..<frames {
            for channel in 0..<channelCount {
                let frequency = 440.0 * (1 + 0.25 * Double(channel))
                let phase = 2 * Double.pi * frequency * Double(frame) / Double(sampleRate)
                samples[frame * channelCount + channel] = amplitude * Float(sin(phase))
            }
        }
        return samples
    }

    /// A sine with white noise added, which lossy encoders cannot squeeze much.
    static func noisySine(frames: Int, channelCount: Int, sampleRate: Int, seed: UInt64 = 1) -> [Float] {
        var samples = sine(frames: frames, channelCount: channelCount, sampleRate: sampleRate, amplitude: 0.4)
        var generator = SeededGenerator(seed: seed)
        for index in samples.indices {
            samples[index] += generator.nextSignedUnit() * 0.2
        }
        return samples
    }
}

extension AudioFileWriter {
    /// Writes an array in blocks of `blockFrames`, as a render loop would.
    func write(_ samples: [Float], blockFrames: Int = 4096) throws {
        let blockSamples = blockFrames * spec.channelCount
        try samples.withUnsafeBufferPointer { all in
            var start = 0
            while start < all.count {
                let end = min(start + blockSamples, all.count)
                try write(UnsafeBufferPointer(rebasing: all[start..<end]))
                start = end
            }
        }
    }
}

/// The file type bits of `path` (not following a final symbolic link), or nil when it does not exist.
func fileType(_ path: String) -> mode_t? {
    var status = stat()
    guard lstat(path, &status) == 0 else { return nil }
    return status.st_mode & S_IFMT
}

func fileContents(_ path: String) -> Data? {
    FileManager.default.contents(atPath: path)
}
