import Dispatch
import Foundation
import Testing

@testable import DAQCLI

/// libdispatch installs its handler for a signal only when the process's first source for it
/// registers; a restore (SIG_DFL) followed by new sources left the signal ignored, and `daq run`,
/// which took SIGINT and SIGTERM first during its start and again for the run, lost both.
@Suite("signal sources taken again after a restore", .timeLimit(.minutes(20)))
struct SignalSourcesTests {
    @Test func aSignalTakenAgainAfterARestoreStillArrives() throws {
        // SIGUSR2: nothing else in the test process sends or watches it.
        let first = SignalSources([SIGUSR2], label: "test.signals.first") { _ in }
        #expect(SignalSources.handlerAction(of: SIGUSR2) != nil, "the first sources install libdispatch's handler")
        first.restore()
        #expect(SignalSources.handlerAction(of: SIGUSR2) == nil, "a restore gives the default action back")

        let arrived = DispatchSemaphore(value: 0)
        let second = SignalSources([SIGUSR2], label: "test.signals.second") { _ in arrived.signal() }
        defer { second.restore() }
        // Left SIG_IGN, the kernel discards the signal whenever the main thread does not block it.
        // Required, not expected: the signal goes to the whole test process, which anything
        // but a handler (the default action) would end with every test still running.
        try #require(SignalSources.handlerAction(of: SIGUSR2) != nil, "libdispatch's handler is back, not SIG_IGN")
        kill(getpid(), SIGUSR2)
        #expect(arrived.wait(timeout: .now() + 30) == .success, "the second sources see the signal")
    }
}
