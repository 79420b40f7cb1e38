/// What a user's recording is read for, which words its faults (`RecordingFault`): the limits differ per use,
/// the reasons for refusing a recording do not.
public protocol RecordingUse: Sendable {
    /// What a fault's message names first ("bed", "cue pack").
    static var subject: String { get }
    /// The rule a refused channel count broke, written right after "has N channels" (" (at most 8)").
    static var channelRule: String { get }
}
