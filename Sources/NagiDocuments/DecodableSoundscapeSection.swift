import Synth

/// A soundscape section of numbers alone, which a document decoder builds from the values its field table read.
protocol DecodableSoundscapeSection: SoundscapeSection {
    /// The section from `values` (every field of the table read and in range), checked by Synth's initializer.
    init(_ values: SoundscapeValues<Self>) throws(SoundscapeError)
}
