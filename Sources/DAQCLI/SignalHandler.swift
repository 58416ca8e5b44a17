import DAQCore
import Dispatch
import Foundation

/// SIGINT and SIGTERM for `daq run`: the first stops gracefully, the second cancels.
///
/// The graceful stop goes through the run's `ServiceGroup` (see ``RunServiceGroup``); this handler
/// is the one trap for both signals: it says the run is stopping before it asks the group, and it
/// counts, because a group cannot turn a second signal into a cancellation. Signals are taken
/// through `DispatchSource`s on one private serial queue, so nothing runs in an async-signal context.
final class SignalHandler: Sendable {
    /// Seconds a cancelled run gets to close its files before the process exits regardless.
    static let cancelGrace = 2.0
    nonisolated(unsafe) private var sources: SignalSources!
    /// Touched only on the sources' queue.
    nonisolated(unsafe) private var count = 0

    init(run: PipelineRun, group: RunServiceGroup) {
        sources = SignalSources([SIGINT, SIGTERM], label: "daq.signals") { [unowned self] _ in
            self.count += 1
            if self.count == 1 {
                printError("\ndaq: stopping: draining buffers and closing sinks (signal again to cancel)")
                group.shutDownGracefully()
            } else {
                printError("daq: cancelling")
                run.cancel()
                // A sink stuck in a write (a full pipe, a hung disk) cannot notice the cancel;
                // the user asked twice, so leave anyway once the others had a moment to close.
                self.sources.queue.asyncAfter(deadline: .now() + SignalHandler.cancelGrace) {
                    printError("daq: cancelled; a stage did not stop in time")
                    run.recordCancelled("cancelled; a stage did not stop in time")
                    Foundation.exit(130)
                }
            }
        }
    }

    /// Restores default signal handling.
    func restore() {
        sources.restore()
    }
}
