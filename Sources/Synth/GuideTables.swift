import Breath
import NagiMath

/// The guide's sounds as tables built once per render: the soundscape's chimes and ticks, and the clips the
/// CLI supplies, each a scaled read from a start frame (see `ClipTrack`).
enum GuideTables {
    /// One chime: each note's partials as decaying cosines (by rotation, no trig per sample) behind a
    /// smoothstep attack, a smoothstep fade over the end, peak-normalised then scaled by the chime's gain.
    static func chime(_ chime: Soundscape.Cues.Chime, cues: Soundscape.Cues, sampleRate: Int) -> FloatBuffer {
        let rate = Double(sampleRate)
        let length = max(1, Int((cues.lengthSeconds * rate).rounded()))
        var samples = [Double](repeating: 0, count: length)
        let attackFrames = max(1, Int((cues.attackSeconds * rate).rounded()))
        let partials = cues.partials.filter { $0.amplitude > 0 }
        var real = [Double](repeating: 0, count: partials.count)
        var imaginary = [Double](repeating: 0, count: partials.count)
        var rotationReal = [Double](repeating: 0, count: partials.count)
        var rotationImaginary = [Double](repeating: 0, count: partials.count)
        for (noteIndex, noteHz) in chime.notesHz.enumerated() {
            let onset = Int((Double(noteIndex) * chime.noteSpacingSeconds * rate).rounded())
            guard onset < length else { continue }
            // Each partial is a decaying cosine by rotation, all partials of the note advanced together so
            // their independent recurrences overlap. Cosine phase: the note's first sample (under the
            // ramp's first, tiny step) is not 0, so a cue is heard from its first frame.
            for (index, partial) in partials.enumerated() {
                let frequency = noteHz * partial.ratio
                let audible = frequency < 0.45 * rate
                let factor = exp(-1 / (partial.decaySeconds * rate))
                let step = 2 * Double.pi * frequency / rate
                real[index] = audible ? partial.amplitude : 0
                imaginary[index] = 0
                rotationReal[index] = factor * cos(step)
                rotationImaginary[index] = factor * sin(step)
            }
            // Through raw buffers: the arrays' bounds and uniqueness checks per partial and frame were most of a
            // render's start (a chime is 10⁵ frames or more).
            let partialCount = partials.count
            samples.withUnsafeMutableBufferPointer { output in
                real.withUnsafeMutableBufferPointer { real in
                    imaginary.withUnsafeMutableBufferPointer { imaginary in
                        rotationReal.withUnsafeBufferPointer { rotationReal in
                            rotationImaginary.withUnsafeBufferPointer { rotationImaginary in
                                for frame in onset..<length {
                                    var sum = 0.0
                                    for index in 0..<partialCount {
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
                    }
                }
            }
        }
        fadeOut(&samples, frames: cues.fadeOutSeconds * rate)
        return table(samples, peakDecibels: chime.gainDecibels)
    }

    /// One tick at `pitchHz`: a decaying sine (cosine phase, heard from its first frame) behind the chimes'
    /// attack, faded over its last quarter, peak at the tick's gain relative to the chimes.
    static func tick(pitchHz: Double, cues: Soundscape.Cues, sampleRate: Int) -> FloatBuffer {
        let rate = Double(sampleRate)
        let tick = cues.tick
        let length = max(1, Int((tick.lengthSeconds * rate).rounded()))
        let attackFrames = max(1, Int((cues.attackSeconds * rate).rounded()))
        let frequency = min(pitchHz, 0.45 * rate)
        let factor = exp(-1 / (tick.decaySeconds * rate))
        let step = 2 * Double.pi * frequency / rate
        var samples = [Double](repeating: 0, count: length)
        var real = 1.0
        var imaginary = 0.0
        for frame in 0..<length {
            let attack = frame < attackFrames ? ControlCurves.smoothstep(Double(frame + 1) / Double(attackFrames + 1)) : 1
            samples[frame] = real * attack
            let next = factor * (real * cos(step) - imaginary * sin(step))
            imaginary = factor * (real * sin(step) + imaginary * cos(step))
            real = next
        }
        fadeOut(&samples, frames: Double(length) / 4)
        return table(samples, peakDecibels: tick.gainDecibels)
    }

    /// A supplied clip, normalised to peak 1 then scaled to the soundscape's clip level relative to the
    /// chimes' gain (the renderer's guide gain carries the chimes' gain for every guide sound).
    static func clip(_ samples: [Float], cues: Soundscape.Cues) -> FloatBuffer {
        table(samples.map { $0.isFinite ? Double($0) : 0 }, peakDecibels: cues.clipGainDecibels - cues.gainDecibels)
    }

    private static func fadeOut(_ samples: inout [Double], frames: Double) {
        let fadeFrames = max(1, frames)
        let fadeStart = Double(samples.count) - fadeFrames
        for index in samples.indices where Double(index) > fadeStart {
            samples[index] *= 1 - ControlCurves.smoothstep((Double(index) - fadeStart) / fadeFrames)
        }
    }

    /// `samples` scaled so the peak is `peakDecibels`, as Floats (denormals flushed to 0).
    private static func table(_ samples: [Double], peakDecibels: Double) -> FloatBuffer {
        let table = FloatBuffer(count: samples.count)
        let peak = samples.reduce(0) { max($0, abs($1)) }
        guard peak > 0 else { return table }
        let scale = Decibels.gain(peakDecibels) / peak
        for index in samples.indices {
            let value = Float(samples[index] * scale)
            table.base[index] = abs(value) < 1e-30 ? 0 : value
        }
        return table
    }
}
