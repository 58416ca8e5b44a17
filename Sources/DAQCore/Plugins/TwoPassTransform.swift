/// A transform that must see the whole of its input before it can process any of it, as a
/// calibration fitted to a whole recording must: the run gives it a first pass over the input.
///
/// On the virtual clock, before any stage starts, the run builds the part of the pipeline
/// upstream of such a transform (its sources and the transforms between) with a second instance
/// of it, calls ``beginFirstPass()`` on that one and runs it to the end: its `process` sees every
/// batch and leaves it empty, and its `finish` keeps what it found. ``firstPassResult()`` then
/// goes to the run's own instance through ``takeFirstPass(_:)``, and the run proper starts. The
/// sources read their input twice, so a first pass suits files, not live devices; on the replay
/// and realtime clocks no first pass is made, and a plugin that needs one says so when it is
/// built (a configuration error telling the user how to give the result instead).
///
/// A first pass's own upstream transforms get their first passes too, so such transforms chain.
///
/// # Thread safety
/// The first-pass methods are called on the thread that starts the run, before the stage's
/// queue runs anything of this instance.
public protocol TwoPassTransform: Transform {
    /// Whether this instance needs a first pass: `false` when its configuration gives what one
    /// would find, and for the first pass's own instance once ``beginFirstPass()`` was called.
    var needsFirstPass: Bool { get }
    /// Makes this instance the first pass's: from now on `process` only looks at its input and
    /// emits nothing.
    func beginFirstPass()
    /// What the first pass found, once it has ended; handed to ``takeFirstPass(_:)``.
    /// - Throws: when the pass found nothing usable and the run must not go on.
    func firstPassResult() throws -> Fields
    /// Takes what a first pass over the same input found, before the run starts.
    /// - Throws: when `result` is not what this plugin's first pass writes.
    func takeFirstPass(_ result: Fields) throws
}
