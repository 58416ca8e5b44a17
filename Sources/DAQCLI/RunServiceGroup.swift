import DAQCore
import Dispatch
import Logging
import ServiceLifecycle

/// `daq run`'s pipeline as a `Service` in a swift-service-lifecycle `ServiceGroup` that takes
/// SIGTERM and SIGINT as graceful-shutdown signals: the first one stops the run gracefully.
///
/// A `ServiceGroup` cannot escalate a second graceful signal (its graceful and cancellation
/// signals must be disjoint), so ``SignalHandler`` keeps counting them: it prints the first and
/// also asks the group to shut down (which covers a signal that comes before the group has set
/// up its own handlers), and cancels on the second.
final class RunServiceGroup: Sendable {
    private let group: ServiceGroup

    init(run: PipelineRun, logger: Logger) {
        group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                // A run whose sources are finite ends by itself: that ends the group, no error.
                services: [
                    .init(
                        service: run, successTerminationBehavior: .gracefullyShutdownGroup,
                        serviceName: "pipeline \(run.spec.name)")
                ],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
    }

    /// Asks the group to stop the run gracefully; a request before it runs is kept for then.
    func shutDownGracefully() {
        Task { [group] in await group.triggerGracefulShutdown() }
    }

    /// Runs the group until the run has ended, on the calling thread: `daq`'s main thread, which
    /// has nothing else to do meanwhile.
    func runUntilEnded() {
        let ended = DispatchSemaphore(value: 0)
        Task { [group] in
            // The run's error, if any, is in its result, which `daq run` reports.
            try? await group.run()
            ended.signal()
        }
        ended.wait()
    }
}
