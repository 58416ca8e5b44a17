import ServiceLifecycle

/// A run as a swift-service-lifecycle `Service`, and its end as something to `await`.
extension PipelineRun: Service {
    /// Starts the run, unless it was started already, and returns when it has ended.
    ///
    /// In a `ServiceGroup`, a graceful shutdown (SIGTERM or SIGINT where the group traps them)
    /// stops the run as ``stop()`` does: sources stop, buffers drain, sinks flush and close, and
    /// `run()` returns. Cancelling the task running it cancels the run as ``cancel()`` does.
    ///
    /// A run whose sources are finite ends by itself: give it `.gracefullyShutdownGroup` as its
    /// success behaviour, or the group reports it as a service that finished unexpectedly.
    ///
    /// ```swift
    /// let service = ServiceGroupConfiguration.ServiceConfiguration(
    ///     service: run, successTerminationBehavior: .gracefullyShutdownGroup)
    /// let group = ServiceGroup(configuration: ServiceGroupConfiguration(
    ///     services: [service], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
    /// try await group.run()
    /// ```
    ///
    /// - Throws: the run's ``DAQError`` when it failed (a stage's failure, a plugin that could
    ///   not start with code ``DAQError/Code/startFailed`` or the plugin's own, or
    ///   ``DAQError/Code/recordFailed`` when its record could not be written); `CancellationError`
    ///   when the task was cancelled; a ``DAQError/Code/cancelled`` error when ``cancel()`` was
    ///   called from elsewhere. ``finished`` has the whole ``RunResult`` in every case.
    public func run() async throws {
        if lifecycleState == .idle {
            do {
                try start()
            } catch let error as PipelineStartError {
                throw error.daqError
            }
        }
        let result = await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await finished
            } onGracefulShutdown: {
                self.stop()
            }
        } onCancel: {
            self.cancel()
        }
        switch result.state {
        case .finished:
            if !result.recordProblems.isEmpty {
                throw DAQError(.recordFailed, result.recordProblems.joined(separator: "; "))
            }
        case .cancelled:
            if Task.isCancelled { throw CancellationError() }
            throw result.error ?? DAQError(.cancelled, "the run was cancelled")
        default:
            throw result.error ?? DAQError(.pluginFailed, "the run failed")
        }
    }

    /// How the run went, once it has ended: ``wait()`` for `async` code, built on
    /// ``onFinish(_:)``, so no thread waits meanwhile.
    ///
    /// Await it from anywhere, before or after the run starts: before, it waits for the start
    /// too. It neither stops nor cancels the run, and cancelling the awaiting task does not end
    /// the wait; ``stop()`` or ``cancel()`` the run for that.
    public var finished: RunResult {
        get async {
            await withCheckedContinuation { continuation in
                eventHub.whenUnderWay {
                    self.onFinish { continuation.resume(returning: $0) }
                }
            }
        }
    }
}
