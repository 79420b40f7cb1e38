import Breath

/// The fuzz targets' use of the shared ScheduleInvariants (Tests/NagiTestSupport): schedule, then trap on the
/// first violation so libFuzzer records the input.
extension ScheduleInvariants {
    /// Schedules `session` at `sampleRate` and checks it; a session beyond the limits may only throw
    /// `.limitExceeded`, and a session the decoder already measured (`mustSucceed`) may not throw at all.
    static func scheduleAndCheck(_ session: Session, sampleRate: Int, mustSucceed: Bool, context: String, allowZeroLength: Bool = false) {
        let schedule: Schedule
        do {
            schedule = try Schedule(session: session, sampleRate: sampleRate)
        } catch {
            fuzzCheck(!mustSucceed, "\(context): a session the decoder accepted failed to schedule at \(sampleRate) Hz: \(error)")
            fuzzCheckClean(error, allowed: { if case .limitExceeded = $0 { true } else { false } }, context)
            return
        }
        let found = violations(of: schedule, session: session, context: "\(context) @\(sampleRate) Hz", allowZeroLength: allowZeroLength)
        fuzzCheck(found.isEmpty, found.joined(separator: "\n"))
    }
}
