import Dispatch

/// The queue device readiness and timeout timers call back on. Their handlers only wake the
/// source, but they must run even when the shared pools are busy: a private serial queue gets
/// its own thread, where a global queue may have none free.
enum WakeQueue {
    static let shared = DispatchQueue(label: "daq.barcode.wake")
}
