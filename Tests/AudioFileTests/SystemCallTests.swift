import Glibc
import Testing

@testable import AudioFile

@Suite("SystemCall: errno read once, EINTR retried except by close")
struct SystemCallTests {
    /// A call that fails with `code` for its first `failures` tries, then returns `value`.
    final class FlakyCall {
        let failures: Int
        let code: Int32
        let value: Int
        private(set) var tries = 0

        init(failures: Int, code: Int32, value: Int = 7) {
            self.failures = failures
            self.code = code
            self.value = value
        }

        func callAsFunction() -> Int {
            tries += 1
            if tries <= failures {
                errno = code
                return -1
            }
            return value
        }
    }

    @Test func interruptedCallsAreRetriedUntilTheyReturn() {
        let call = FlakyCall(failures: 3, code: EINTR)
        #expect(SystemCall.valueOrErrno { call() } == .success(7))
        #expect(call.tries == 4)
    }

    @Test func otherErrorsAreReturnedAtOnceWithTheirErrno() {
        let call = FlakyCall(failures: 1, code: ENOSPC)
        #expect(SystemCall.valueOrErrno { call() } == .failure(SystemCall.Failure(code: ENOSPC)))
        #expect(call.tries == 1)
    }

    @Test func withoutRetryAnInterruptionIsReturned() {
        let call = FlakyCall(failures: 1, code: EINTR)
        #expect(SystemCall.valueOrErrno(retryOnInterrupt: false) { call() } == .failure(SystemCall.Failure(code: EINTR)))
        #expect(call.tries == 1)
    }

    @Test func realCallsReportTheirErrno() {
        #expect(SystemCall.open("/nonexistent-nagi-folder/x", O_RDONLY).failure == SystemCall.Failure(code: ENOENT))
        #expect(SystemCall.close(-1) == SystemCall.Failure(code: EBADF))
        #expect(SystemCall.fsync(-1) == SystemCall.Failure(code: EBADF))
    }
}
