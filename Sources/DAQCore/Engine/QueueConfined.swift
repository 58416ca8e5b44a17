/// A weak reference to an object confined to a stage's queue, carried through a callback that
/// runs elsewhere (a timer, a task, an I/O thread) so the work it schedules back can reach the
/// object if it still exists, without keeping it alive.
///
/// # Thread safety
/// `@unchecked Sendable` because the box may travel anywhere, but ``value`` may be read only on
/// the queue the object is confined to: inside ``StageContext/perform(_:)`` or a timer of the
/// stage's. Reading it elsewhere is a data race.
public struct QueueConfined<Object: AnyObject>: @unchecked Sendable {
    /// The object, or `nil` once it is gone; read only on its queue.
    public private(set) weak var value: Object?

    /// Wraps `value` without retaining it.
    public init(_ value: Object) { self.value = value }
}
