/// A key the listener can press during live playback, decoded by `TerminalKeys`.
public enum LiveKey: Sendable, Equatable, CaseIterable {
    /// Space: pause, or resume.
    case togglePause
    /// q, Q or Esc: end gracefully.
    case stop
    /// `+`, `=` (the unshifted +) or the up arrow: 2 dB louder.
    case volumeUp
    /// `-` or the down arrow: 2 dB quieter.
    case volumeDown
    /// n: on to the next stage (or round) at the next phase boundary.
    case nextStage
    /// b: back to the start of the current stage (or round) at the next phase boundary.
    case stageStart
    /// Enter: end an open hold now.
    case endHold
}
