/// Where `Soundtrack.write` puts the file.
public enum SoundtrackDestination: Sendable, Equatable {
    /// A path: a regular file appears complete or not at all (written beside it and renamed); an existing one
    /// is replaced only with `overwrite`. A pipe or a device is written straight.
    case file(path: String, overwrite: Bool)
    /// Standard output, streamed in any format without seeking back (WAV's sizes say "unknown").
    case standardOutput
    /// A pipe or socket the caller opened and keeps (the writer writes a duplicate of its own), streamed as standard
    /// output is, except that a WAV's header gives its exact sizes.
    case stream(fileDescriptor: Int32)
}
