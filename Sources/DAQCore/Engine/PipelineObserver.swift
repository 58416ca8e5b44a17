/// Receives run events. Every method has an empty default, so a type implements only what it
/// needs; ``handle(_:)`` routes each event to its method. Every kind of ``PipelineEvent`` has a
/// method, and a kind added later comes with a method of its own, so an observer written
/// against this protocol keeps compiling and working as events are added.
///
/// Callbacks may arrive on any queue and must not block: the engine calls them inline.
public protocol PipelineObserver: AnyObject, Sendable {
    /// Every event, before it is routed; implement it to see them all as values instead.
    func handle(_ event: PipelineEvent)
    /// The pipeline (`nil`) or a stage moved between any two states; the methods below name
    /// the moves most observers want.
    func stateChanged(_ component: String?, from: LifecycleState, to: LifecycleState)
    func started(_ component: String?)
    func stopped(_ component: String?)
    func paused(_ component: String?)
    func resumed(_ component: String?)
    func cancelled(_ component: String?)
    /// A stage or the pipeline failed; its default calls ``failed(_:message:)``.
    func failed(_ component: String?, error: DAQError)
    /// A stage or the pipeline failed, as text: what observers written before ``DAQError``
    /// implement. Called only by the default ``failed(_:error:)``.
    func failed(_ component: String?, message: String)
    func timeout(_ component: String, message: String)
    func stepChanged(path: String, uptime: Double)
    func sent(sink: String, samples: Int, bytes: Int)
    func progress(sink: String, bytes: Int, total: Int)
    func delivered(sink: String, samples: Int, bytes: Int)
    func sinkFailed(sink: String, samples: Int, message: String)
    func messages(sink: String, status: MessageStatus, ids: [String])
    /// A buffer in front of `component` dropped `samples` under a `drop_*` policy.
    func dropped(_ component: String, samples: Int)
    /// Source `component` waits for room in a reader's `block` buffer.
    func backpressure(_ component: String)
    /// `component` tells what it found out (a detected unit, a preamble).
    func notice(_ component: String, message: String)
    /// `component` recovered from a problem (a bad row skipped); counted as an error.
    func warning(_ component: String, message: String)
}

extension PipelineObserver {
    public func handle(_ event: PipelineEvent) {
        switch event {
        case .state(let c, let from, let to):
            stateChanged(c, from: from, to: to)
            switch (from, to) {
            case (.paused, .running): resumed(c)
            case (_, .running): started(c)
            case (_, .finished): stopped(c)
            case (_, .paused): paused(c)
            case (_, .cancelled): cancelled(c)
            default: break
            }
        case .failed(let c, let e): failed(c, error: e)
        case .timeout(let c, let m): timeout(c, message: m)
        case .stepChanged(let p, let u): stepChanged(path: p, uptime: u)
        case .sent(let s, let n, let b): sent(sink: s, samples: n, bytes: b)
        case .progress(let s, let b, let t): progress(sink: s, bytes: b, total: t)
        case .delivered(let s, let n, let b): delivered(sink: s, samples: n, bytes: b)
        case .sinkFailed(let s, let n, let m): sinkFailed(sink: s, samples: n, message: m)
        case .messages(let s, let status, let ids): messages(sink: s, status: status, ids: ids)
        case .dropped(let c, let n): dropped(c, samples: n)
        case .backpressure(let c): backpressure(c)
        case .notice(let c, let m): notice(c, message: m)
        case .warning(let c, let m): warning(c, message: m)
        }
    }
    public func stateChanged(_ component: String?, from: LifecycleState, to: LifecycleState) {}
    public func started(_ component: String?) {}
    public func stopped(_ component: String?) {}
    public func paused(_ component: String?) {}
    public func resumed(_ component: String?) {}
    public func cancelled(_ component: String?) {}
    public func failed(_ component: String?, error: DAQError) { failed(component, message: error.message) }
    public func failed(_ component: String?, message: String) {}
    public func timeout(_ component: String, message: String) {}
    public func stepChanged(path: String, uptime: Double) {}
    public func sent(sink: String, samples: Int, bytes: Int) {}
    public func progress(sink: String, bytes: Int, total: Int) {}
    public func delivered(sink: String, samples: Int, bytes: Int) {}
    public func sinkFailed(sink: String, samples: Int, message: String) {}
    public func messages(sink: String, status: MessageStatus, ids: [String]) {}
    public func dropped(_ component: String, samples: Int) {}
    public func backpressure(_ component: String) {}
    public func notice(_ component: String, message: String) {}
    public func warning(_ component: String, message: String) {}
}
