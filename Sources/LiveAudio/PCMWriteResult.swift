/// What a `PCMSink.write` achieved.
public enum PCMWriteResult: Sendable, Equatable {
    /// The sink accepted this many frames from the start of the buffer (may be fewer than offered).
    case written(Int)
    /// Nothing was accepted. `errno` is positive (ALSA's `-EPIPE` arrives as `EPIPE`).
    case failed(errno: Int32)
}
