/// A transform or sink that finishes a batch's work after `process` or `write` has returned:
/// it looks ids up over the network, asks another process, waits for a device.
///
/// The engine cannot know when such work is done, so the plugin tells it two things: whether
/// it takes more input now (so what it holds stays bounded and backpressure reaches the
/// sources through the edge buffers) and whether it still owes output (so the stage does not
/// end, and the run does not close its sinks, while answers are on their way). Whenever either
/// may have changed from `false` to `true` or back, the plugin calls ``StageContext/wake()``
/// and the engine asks again.
///
/// Output that comes later is handed over with ``StageContext/emit(_:)`` (transforms) or
/// written by the plugin itself (sinks), from ``StageContext/perform(_:)`` so it runs on the
/// stage's queue with the rest of the plugin's state.
///
/// # Thread safety
/// Both properties are read on the stage's queue only.
public protocol DeferredWork: AnyObject {
    /// Whether the stage may hand the plugin another batch now.
    var acceptsInput: Bool { get }
    /// Whether work already taken is still unfinished; the stage ends only once it is not.
    var hasPendingWork: Bool { get }
    /// Called once when every input has ended, before the engine waits for pending work: the
    /// moment to tell a helper that nothing more comes (close a program's stdin).
    func inputEnded()
}

extension DeferredWork {
    public func inputEnded() {}
}
