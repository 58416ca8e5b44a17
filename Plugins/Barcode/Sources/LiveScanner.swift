import DAQCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A scanner device: how to open it and how its bytes become code bytes.
protocol ScannerDevice: AnyObject {
    /// The device path, for messages.
    var path: String { get }
    /// Opens the device non-blocking, configured; throws ``DeviceError`` saying what to do.
    func open() throws -> Int32
    /// Turns bytes read from the device into code bytes and terminators.
    func decode(_ bytes: UnsafeRawBufferPointer, into out: inout [UInt8])
    /// Releases what `open` set up (an exclusive grab) before the descriptor is closed.
    func release(_ fd: Int32)
}

/// Why a device could not be opened, with what the user can do about it.
struct DeviceError: Error, CustomStringConvertible {
    var path: String
    var reason: String
    var description: String { "\(path): \(reason)" }

    /// The error for `errno` after a failed open, with a hint for the usual causes.
    static func opening(_ path: String, errno code: Int32, group: String, kind: String) -> DeviceError {
        switch code {
        case ENOENT, ENXIO, ENODEV:
            return DeviceError(path: path, reason: "no such device — is the \(kind) plugged in?")
        case EACCES, EPERM:
            return DeviceError(
                path: path,
                reason:
                    "permission denied — add your user to the '\(group)' group (sudo usermod -aG \(group) $USER, then log in again) or add a udev rule"
            )
        default:
            return DeviceError(path: path, reason: String(cString: strerror(code)))
        }
    }
}

/// The live half every device scanner shares: reads the device when it is readable, cuts codes,
/// keeps the session rules, takes triggers, times sessions out on the run clock, and reopens a
/// device that went away.
///
/// # Thread safety
/// `read`, `start` and `stop` run on the source's queue; the device watch and the wake at a
/// session's timeout are the context's, and only wake the source.
final class LiveScanner {
    private let device: any ScannerDevice
    private let settings: SessionSettings
    private let reopenInterval: Double
    private var sessions: ScanSessions
    private var assembler: CodeAssembler
    private var triggers: LiveTriggers?
    private var fd: Int32 = -1
    private var readWatch: StageTask?
    private let watch = SessionWatch()
    private var nextReopen: Double?
    private var chunk = [UInt8](repeating: 0, count: 4096)
    private var decoded: [UInt8] = []

    init(device: any ScannerDevice, settings: SessionSettings, terminator: Terminator, reopenInterval: Double) {
        self.device = device
        self.settings = settings
        self.reopenInterval = reopenInterval
        sessions = ScanSessions(mode: settings.mode, timeout: settings.effectiveTimeout)
        assembler = CodeAssembler(terminator: terminator, maxLength: settings.maxLength)
    }

    func start(context: StageContext) throws {
        sessions.timeBase = context.startDate
        watch.attach(context)
        try attach(device.open(), context: context)
        triggers = try LiveTriggers(settings: settings, context: context)
    }

    private func attach(_ descriptor: Int32, context: StageContext) {
        fd = descriptor
        // The watch closes a descriptor of its own once libdispatch lets go of it, so ``detach()``
        // may release and close the device's at once.
        readWatch = context.watch(fileDescriptor: dup(descriptor), for: .read, closesDescriptor: true) {
            context.wake()
        }
    }

    func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus {
        let now = context.clock.now()
        try triggers?.apply(to: &sessions, now: now, into: &batch, context: context)
        if fd >= 0 {
            readDevice(into: &batch, context: context)
        } else if let due = nextReopen, due <= now {
            reopen(at: now, context: context)
        }
        sessions.expire(upTo: context.clock.now(), into: &batch)
        scheduleWake(context: context)
        return batch.isEmpty ? .idle : .more
    }

    private func readDevice(into batch: inout Batch, context: StageContext) {
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                let t = context.clock.now()
                decoded.removeAll(keepingCapacity: true)
                chunk.withUnsafeBytes { device.decode(UnsafeRawBufferPointer(rebasing: $0[0..<n]), into: &decoded) }
                decoded.withUnsafeBytes { bytes in
                    assembler.feed(bytes) { piece in handle(piece, at: t, into: &batch, context: context) }
                }
                continue
            }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
            if n < 0 && errno == EINTR { continue }
            lost(n == 0 ? "the device hung up" : String(cString: strerror(errno)), into: &batch, context: context)
            return
        }
    }

    private func handle(_ piece: CodeAssembler.Piece, at t: Double, into batch: inout Batch, context: StageContext) {
        switch piece {
        case .started:
            if settings.mode == .continuous { sessions.begin(at: t, into: &batch) }
        case .code(let raw):
            if !sessions.deliver(ScannedCode(raw: raw), at: t, into: &batch) {
                context.warn("\(device.path): code read with no session open (mode: triggered): ignored")
            }
        case .overlong(let n):
            let message =
                "code longer than \(settings.maxLength) bytes without a terminator (\(n) bytes so far): dropped"
            context.warn("\(device.path): \(message)")
            sessions.fail(message, at: t, into: &batch)
        }
    }

    /// The device went away: the session in progress ends in an error; reopening starts.
    private func lost(_ reason: String, into batch: inout Batch, context: StageContext) {
        let t = context.clock.now()
        let partial = assembler.reset()
        let detail = partial > 0 ? " (\(partial) bytes of a code lost)" : ""
        context.warn("\(device.path): connection lost: \(reason)\(detail); reopening every \(reopenInterval) s")
        sessions.fail("connection lost: \(reason)", at: t, into: &batch)
        detach()
        nextReopen = t + reopenInterval
    }

    private func reopen(at now: Double, context: StageContext) {
        do {
            attach(try device.open(), context: context)
            nextReopen = nil
            context.notice("\(device.path): reopened")
        } catch {
            nextReopen = now + reopenInterval
        }
    }

    /// Wakes the source when the open session times out or a reopen is due.
    private func scheduleWake(context: StageContext) {
        // Under the virtual clock no wake comes: time there moves with the data.
        guard let due = [sessions.deadline, fd < 0 ? nextReopen : nil].compactMap({ $0 }).min() else { return }
        context.wake(atUptime: due)
    }

    private func detach() {
        readWatch?.cancel()
        readWatch = nil
        if fd >= 0 {
            device.release(fd)
            _ = Glibc.close(fd)
            fd = -1
        }
    }

    /// The run ended the source: closes the session the pipeline has open, at `uptime`.
    func cutShort(into batch: inout Batch, at uptime: Double, context: StageContext) {
        sessions.cutShort(watched: watch, at: uptime, into: &batch)
    }

    func stop(context: StageContext) {
        if let open = sessions.open {
            context.warn("\(device.path): session \(open.id) was still open when the run stopped")
        }
        triggers?.close()
        triggers = nil
        detach()
    }
}
