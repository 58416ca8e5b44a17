import Dispatch

extension StageRuntime {
    /// After the plugin's `stop` or `finish` has returned: when it deferred its end
    /// (``StageContext/completeEndLater(waitingAtMost:)``), calls `then` on `queue` once that has
    /// settled or its limit has passed, and returns `true`; the stage stays open meanwhile, so
    /// what the plugin reports on its way out is counted. Returns `false` when there is nothing
    /// to wait for. Runs on `queue`.
    /// - Parameters:
    ///   - final: How the stage ends if the end succeeds.
    ///   - then: Ends the stage: with `final`, or `failed` when the plugin failed its end.
    func awaitDeferredEnd(_ final: LifecycleState, then: @escaping @Sendable (LifecycleState) -> Void) -> Bool {
        guard let completion = tasks.takeDeferredEnd() else { return false }
        let limit = completion.limit
        // The engine's own timer, not the plugin's: those end with the stage. Expiring a
        // completion that settled meanwhile does nothing.
        let (seconds, attoseconds) = limit.components
        let nanos = max(0, seconds) * 1_000_000_000 + attoseconds / 1_000_000_000
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: nanos))) { completion.expire() }
        completion.onSettle { [self] outcome in
            queue.async { [self] in
                switch outcome {
                case .succeeded:
                    then(final)
                case .expired:
                    context.warn(
                        "its \(kind == .source ? "stop" : "finish") did not complete within \(limit); the stage ends without it"
                    )
                    then(final)
                case .failed(let error):
                    noteError(daqError(error), fatal: true)
                    host?.stageFailed(self)
                    then(.failed)
                }
            }
        }
        return true
    }
}
