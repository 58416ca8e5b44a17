import DAQCore
import Dispatch
import Foundation

/// SIGINT and SIGTERM for `daq run`, from before its start to its end: the first stops the run
/// gracefully, the second cancels. A stop during the start ends a first pass under way (half a
/// recording fits no calibration), and the run then ends cancelled before it began.
///
/// The graceful stop goes through the run's `ServiceGroup` (see ``RunServiceGroup``); this handler
/// is the one trap for both signals: it says the run is stopping before it asks the group, and it
/// counts, because a group cannot turn a second signal into a cancellation. One trap covers the
/// whole command, so no signal falls between two of them, where it would kill `daq` unsaved.
/// Signals are taken through `DispatchSource`s on one private serial queue, so nothing runs in an
/// async-signal context.
final class SignalHandler: Sendable {
    /// Seconds a cancelled run gets to close its files before the process exits regardless.
    static let cancelGrace = 2.0

    /// Where the command is, as the signals see it.
    private enum State {
        /// `start()` is under way: the service group does not run yet, so a signal stops the run
        /// itself (which ends a first pass under way).
        case starting
        /// The stages run: a signal stops them gracefully.
        case running
        /// A graceful stop or a cancel was asked for: another signal cancels, and exits soon.
        case ending
    }

    nonisolated(unsafe) private var sources: SignalSources!
    /// Touched only on the sources' queue.
    nonisolated(unsafe) private var state = State.starting

    /// Takes the signals from now on; call it before the run starts.
    init(run: PipelineRun, group: RunServiceGroup) {
        sources = SignalSources([SIGINT, SIGTERM], label: "daq.signals") { [unowned self] _ in
            switch self.state {
            case .starting:
                self.state = .ending
                printError("\ndaq: stopping while the run starts (signal again to cancel)")
                run.stop()
            case .running:
                self.state = .ending
                printError("\ndaq: stopping: draining buffers and closing sinks (signal again to cancel)")
                group.shutDownGracefully()
            case .ending:
                printError("daq: cancelling")
                run.cancel()
                // A sink stuck in a write (a full pipe, a hung disk), or a first pass stuck in a
                // read, cannot notice the cancel; the user asked twice, so leave anyway once the
                // others had a moment to close.
                self.sources.queue.asyncAfter(deadline: .now() + SignalHandler.cancelGrace) {
                    printError("daq: cancelled; a stage did not stop in time")
                    run.recordCancelled("cancelled; a stage did not stop in time")
                    Foundation.exit(130)
                }
            }
        }
    }

    /// The run has started: a signal now stops it through the service group.
    func runStarted() {
        sources.queue.sync {
            if case .starting = state { state = .running }
        }
    }

    /// Restores default signal handling.
    func restore() {
        sources.restore()
    }
}
