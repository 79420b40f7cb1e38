import Breath
import NagiMath

/// The three chimes (inhale, hold, exhale) pre-rendered once per render; a cue in the mix is a scaled read
/// of one of them starting on a phase's first frame.
struct CueBank {
    /// Frames per chime.
    let length: Int
    /// The inhale, hold and exhale chimes, each `length` samples, peak = the chime's relative gain (≤ 1).
    let tables: [FloatBuffer]
    /// Each table's largest magnitude.
    let peaks: [Float]

    /// The table index for a phase kind.
    static func tableIndex(for kind: PhaseKind) -> Int {
        switch kind {
        case .inhale: 0
        case .holdIn, .holdOut: 1
        case .exhale: 2
        }
    }

    init(_ cues: Soundscape.Cues, sampleRate: Int) {
        let rate = Double(sampleRate)
        length = max(1, Int((cues.lengthSeconds * rate).rounded()))
        let length = self.length
        tables = [cues.inhale, cues.hold, cues.exhale].map { Self.render($0, cues: cues, length: length, sampleRate: rate) }
        peaks = tables.map(\.peak)
    }

    /// One chime: each note's partials as decaying cosines (by rotation, no trig per sample) behind a
    /// smoothstep attack, a smoothstep fade over the end, peak-normalised then scaled by the chime's gain.
    private static func render(_ chime: Soundscape.Cues.Chime, cues: Soundscape.Cues, length: Int, sampleRate: Double) -> FloatBuffer {
        var samples = [Double](repeating: 0, count: length)
        let attackFrames = max(1, Int((cues.attackSeconds * sampleRate).rounded()))
        let partials = cues.partials.filter { $0.amplitude > 0 }
        var real = [Double](repeating: 0, count: partials.count)
        var imaginary = [Double](repeating: 0, count: partials.count)
        var rotationReal = [Double](repeating: 0, count: partials.count)
        var rotationImaginary = [Double](repeating: 0, count: partials.count)
        for (noteIndex, noteHz) in chime.notesHz.enumerated() {
            let onset = Int((Double(noteIndex) * chime.noteSpacingSeconds * sampleRate).rounded())
            guard onset < length else { continue }
            // Each partial is a decaying cosine by rotation (no trig per sample), all partials of the note
            // advanced together so their independent recurrences overlap. Cosine phase: the note's first
            // sample (under the ramp's first, tiny step) is not 0, so a cue is heard from its first frame.
            for (index, partial) in partials.enumerated() {
                let frequency = noteHz * partial.ratio
                let audible = frequency < 0.45 * sampleRate
                let factor = exp(-1 / (partial.decaySeconds * sampleRate))
                let step = 2 * Double.pi * frequency / sampleRate
                real[index] = audible ? partial.amplitude : 0
                imaginary[index] = 0
                rotationReal[index] = factor * cos(step)
                rotationImaginary[index] = factor * sin(step)
            }
            samples.withUnsafeMutableBufferPointer { output in
                for frame in onset..<length {
                    var sum = 0.0
                    for index in 0..<partials.count {
                        let re = real[index]
                        let im = imaginary[index]
                        sum += re
                        real[index] = re * rotationReal[index] - im * rotationImaginary[index]
                        imaginary[index] = re * rotationImaginary[index] + im * rotationReal[index]
                    }
                    let age = frame - onset
                    output[frame] += age < attackFrames ? sum * ControlCurves.smoothstep(Double(age + 1) / Double(attackFrames + 1)) : sum
                }
            }
        }
        let fadeFrames = max(1, cues.fadeOutSeconds * sampleRate)
        let fadeStart = Double(length) - fadeFrames
        var peak = 0.0
        for index in 0..<length {
            if Double(index) > fadeStart {
                samples[index] *= 1 - ControlCurves.smoothstep((Double(index) - fadeStart) / fadeFrames)
            }
            peak = max(peak, abs(samples[index]))
        }
        let table = FloatBuffer(count: length)
        guard peak > 0 else { return table }
        let scale = pow(10, chime.gainDecibels / 20) / peak
        for index in 0..<length {
            let value = Float(samples[index] * scale)
            table.base[index] = abs(value) < 1e-30 ? 0 : value
        }
        return table
    }
}
