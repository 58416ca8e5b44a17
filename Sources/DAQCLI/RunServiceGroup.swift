import DAQCore
import Dispatch
import Logging
import ServiceLifecycle

/// `daq run`'s pipeline as a `Service` in a swift-service-lifecycle `ServiceGroup`: SIGTERM and
/// SIGINT shut the group down gracefully, and the run's service stops the run.
///
/// The signals are ``SignalHandler``'s alone, not the group's too: a group cannot escalate a
/// second graceful signal (its graceful and cancellation signals must be disjoint), and with two
/// traps on one signal the group's could end the run, and `daq` exit, before the handler had
/// said it was stopping. The handler says so, then asks the group to shut down (a request that
/// comes before the group runs is kept for then), and cancels on the second signal.
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
                logger: logger))
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
