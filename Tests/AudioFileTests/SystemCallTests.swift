import NagiSystem
import Glibc
import Testing

import AudioFile

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
        #expect(SystemCall.valueOrErrno { call() } == .failure(Errno(ENOSPC)))
        #expect(call.tries == 1)
    }

    @Test func withoutRetryAnInterruptionIsReturned() {
        let call = FlakyCall(failures: 1, code: EINTR)
        #expect(SystemCall.valueOrErrno(retryOnInterrupt: false) { call() } == .failure(Errno(EINTR)))
        #expect(call.tries == 1)
    }

    @Test func realCallsReportTheirErrno() {
        #expect(SystemCall.open("/nonexistent-nagi-folder/x", O_RDONLY).failure == Errno(ENOENT))
        #expect(SystemCall.close(-1) == Errno(EBADF))
        #expect(SystemCall.fsync(-1) == Errno(EBADF))
    }
}
