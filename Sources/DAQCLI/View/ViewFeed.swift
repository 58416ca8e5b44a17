import DAQCore
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What the view shows, read from a run's control socket: its `stats` once a second and a tap
/// of every source and transform, exactly as `daq top` and `daq tap` read them.
///
/// `daq run --view` and `daq view` share this path, so the page sees a run the same way
/// whether it is served by the run's own process or by another one.
///
/// # Thread safety
/// One thread asks for stats, one reads each tap; what they share is behind `Mutex`es
/// (``ViewHub``, ``ViewDescriptors``, the open descriptors here).
final class ViewFeed: Sendable {
    let socket: String
    let hub: ViewHub
    private let descriptors = ViewDescriptors()
    private let tapped = Mutex<Set<String>>([])
    private let open = Mutex<Set<Int32>>([])
    private let stopped = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)
    private let onEnded: @Sendable () -> Void
    /// The hub's generation this feed publishes under (see ``ViewHub/reset(title:)``).
    let generation: Int

    /// A feed from the control socket at `socket` into `hub`; `onEnded` is called once the run
    /// has ended (its control socket stopped answering).
    init(socket: String, hub: ViewHub, generation: Int = 0, onEnded: @escaping @Sendable () -> Void = {}) {
        self.socket = socket
        self.hub = hub
        self.generation = generation
        self.onEnded = onEnded
    }

    /// Asks for the run's stats once, so an unreachable run is reported here, then starts the
    /// stats thread and one tap per source and transform.
    /// - Throws: ``ControlError`` when the socket does not answer.
    func start() throws {
        let fd = try Self.connect(socket)
        let reader = SocketLineReader(fd: fd)
        guard UnixSocket.write(fd, Array("stats\n".utf8)), let first = reader.next(),
            let stats = try? JSONDecoder().decode(RunStats.self, from: Data(first.utf8))
        else {
            close(fd)
            throw ControlError("the control socket at \(socket) did not answer 'stats'")
        }
        open.withLock { _ = $0.insert(fd) }
        startTaps(for: stats)
        // The reader holds nothing unread after one answer: the thread starts its own.
        let t = Thread { [self] in
            WatcherPriority.lowerCallingThread()
            pollStats(fd: fd, first: first, stats: stats)
        }
        t.name = "daq.view.stats"
        SignalMask.startingThread { t.start() }
    }

    /// Ends every thread's connection; the threads then end by themselves.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wake.signal()
        for fd in open.withLock({ Array($0) }) { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    private static func connect(_ socket: String) throws -> Int32 {
        do {
            return try UnixSocket.connect(to: socket)
        } catch {
            throw ControlError("\(error) (has the run ended?)")
        }
    }

    /// Taps every source and transform not tapped yet (a reload may add some); sinks carry
    /// their producers' streams, which are tapped already.
    private func startTaps(for stats: RunStats) {
        let names = tapped.withLock { set -> [String] in
            let new = stats.stages.filter { $0.kind != "sink" && !set.contains($0.name) }.map(\.name)
            set.formUnion(new)
            return new
        }
        let first = stats.stages.first { $0.kind != "sink" }?.name
        for name in names {
            let tap = ViewTap(
                component: name, hub: hub, descriptors: descriptors, logsSteps: name == first, generation: generation)
            let t = Thread { [self] in
                WatcherPriority.lowerCallingThread()
                guard !stopped.load(ordering: .acquiring), let fd = try? Self.connect(socket) else { return }
                open.withLock { _ = $0.insert(fd) }
                // Checked again once registered, so a stop in between is not missed.
                if !stopped.load(ordering: .acquiring) { tap.read(fd: fd) }
                open.withLock { _ = $0.remove(fd) }
                close(fd)
            }
            t.name = "daq.view.tap"
            SignalMask.startingThread { t.start() }
        }
    }

    private func pollStats(fd: Int32, first: String, stats firstStats: RunStats) {
        let reader = SocketLineReader(fd: fd)
        var line = first
        var stats = firstStats
        var previous: RunStats?
        while true {
            publish(line, stats: stats, previous: previous)
            previous = stats
            // A semaphore rather than a sleep, so that stop() ends the wait at once.
            _ = wake.wait(timeout: .now() + .seconds(1))
            guard !stopped.load(ordering: .acquiring), UnixSocket.write(fd, Array("stats\n".utf8)),
                let next = reader.next(), let decoded = try? JSONDecoder().decode(RunStats.self, from: Data(next.utf8))
            else { break }
            line = next
            stats = decoded
            startTaps(for: stats)
        }
        open.withLock { _ = $0.remove(fd) }
        close(fd)
        hub.publish(
            log: ViewFrame.log(level: "info", text: "the run has ended", t: previous?.uptime ?? 0),
            generation: generation)
        hub.publishEnded(generation: generation)
        onEnded()
    }

    private func publish(_ raw: String, stats: RunStats, previous: RunStats?) {
        let (json, skipped, taps) = descriptors.snapshot()
        var out: [UInt8] = Array(#"{"stats":"#.utf8)
        out.append(contentsOf: raw.utf8)
        out.append(contentsOf: #","descriptors":"#.utf8)
        out.append(contentsOf: json)
        out.append(
            contentsOf:
                #","view":{"clients":\#(hub.clientCount),"framesSent":\#(hub.framesSent.load(ordering: .relaxed)),"framesDropped":\#(hub.framesDropped.load(ordering: .relaxed)),"tapSkipped":\#(skipped),"taps":\#(taps)}}"#
                .utf8)
        hub.publish(stats: ViewFrame.sse("stats", out), generation: generation)
        for (level, text) in ViewLog.changes(from: previous, to: stats) {
            hub.publish(log: ViewFrame.log(level: level, text: text, t: stats.uptime), generation: generation)
        }
    }
}

/// The log lines one second of a run's counters call for: state changes, drops, errors and
/// failed deliveries, as they happen.
enum ViewLog {
    static func changes(from previous: RunStats?, to now: RunStats) -> [(String, String)] {
        guard let previous else { return [("info", "\(now.pipeline) is \(now.state)")] }
        var lines: [(String, String)] = []
        if previous.state != now.state { lines.append(("info", "\(now.pipeline): \(previous.state) → \(now.state)")) }
        let before = Dictionary(previous.stages.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for s in now.stages {
            guard let b = before[s.name] else {
                lines.append(("info", "\(s.name) (\(s.type)) added"))
                continue
            }
            if s.dropped > b.dropped {
                lines.append(
                    ("warning", "\(s.name) dropped \(s.dropped - b.dropped) samples: its input buffer was full"))
            }
            if s.errors > b.errors { lines.append(("error", "\(s.name): \(s.errors - b.errors) errors")) }
            if s.failed > b.failed {
                lines.append(("error", "\(s.name): \(s.failed - b.failed) samples not delivered"))
            }
        }
        return lines
    }
}
