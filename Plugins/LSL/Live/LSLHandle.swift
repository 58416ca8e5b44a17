import DAQCore

/// A liblsl object (inlet, outlet, resolver) on its way to being destroyed off the stage's queue.
///
/// # Thread safety
/// `@unchecked Sendable`: liblsl's objects may be used from any thread, and the plugin gives
/// up its handle when it sends one, so only the destroying thread touches it afterwards.
struct LSLHandle: @unchecked Sendable {
    let raw: OpaquePointer
    let destroy: @convention(c) (OpaquePointer?) -> Void
}

extension StageContext {
    /// Destroys a liblsl object on the threads kept for blocking work: destroying an inlet,
    /// outlet or resolver joins liblsl's own threads (a reconnecting inlet's waits up to 0.5 s),
    /// which no stage queue may wait for. `then` runs on the stage's queue once it is gone.
    func destroyLSL(
        _ handle: OpaquePointer, with destroy: @escaping @convention(c) (OpaquePointer?) -> Void,
        then: @escaping @Sendable () -> Void = {}
    ) {
        let owned = LSLHandle(raw: handle, destroy: destroy)
        offload({ owned.destroy(owned.raw) }, then: { _ in then() })
    }
}
