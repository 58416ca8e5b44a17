import DAQCore
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The control socket of a running `daq run`: `daq top`, `daq tap` and `daq control` talk to it.
///
/// The protocol is text in, JSON Lines out, so `socat - UNIX:…` works too. Each line is a command:
///
/// | command | answer |
/// |---|---|
/// | `stats` | one line: the pipeline, its state and every stage's counters |
/// | `tap GLOB [MAX-RATE]` | the samples leaving matching components, until the client closes |
/// | `pause`, `resume`, `stop`, `step PATH` | `{"ok":true}` or `{"ok":false,"error":…}` |
/// | `reload` | applies the pipeline file again, or says why not |
///
/// One thread accepts and one serves each client, with blocking I/O: clients are few, and no
/// pipeline queue ever runs control-socket code except the tap's enqueue. So that a local
/// process cannot pile up threads, at most ``maxClients`` are served at once (the next is told
/// so and closed), and a client silent for ``idleTimeout`` seconds between commands, or in the
/// middle of one, is let go; a tap, which only reads, is exempt.
final class ControlServer: @unchecked Sendable {
    let path: String
    private let fd: Int32
    private let run: PipelineRun
    private let pipeline: String
    private let hub: TapHub
    private let clients = Mutex<Set<Int32>>([])
    /// Clients served at once: `daq top`, `tap` and `control` are a handful.
    static let maxClients = 64
    /// Seconds a client may be silent while a command is awaited.
    let idleTimeout: Double
    private var links: [String] = []
    private let stopped = Atomic<Bool>(false)
    /// Applies the pipeline file again; `nil` when it was applied, else why not.
    private let reload: @Sendable () -> String?

    /// Listens at this process's socket path and starts accepting.
    init(
        run: PipelineRun, pipeline: String, idleTimeout: Double = 120, reload: @escaping @Sendable () -> String?
    ) throws {
        self.run = run
        self.idleTimeout = idleTimeout
        self.pipeline = pipeline
        self.reload = reload
        path = try ControlSockets.path(pipeline: pipeline)
        fd = try UnixSocket.listen(at: path)
        hub = TapHub(run: run)
        let t = Thread { [self] in acceptLoop() }
        t.name = "daq.control"
        SignalMask.startingThread { t.start() }
    }

    /// Links `control.sock` in every run directory created so far to the socket.
    func linkRunDirectories(_ directories: [String]) {
        for dir in directories {
            let link = (dir as NSString).appendingPathComponent("control.sock")
            if symlink(path, link) == 0 { links.append(link) }
        }
    }

    /// Stops accepting, ends every client and removes the socket and its links.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        hub.closeAll()
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
        for c in clients.withLock({ $0 }) { shutdown(c, Int32(SHUT_RDWR)) }
        unlink(path)
        for l in links { unlink(l) }
    }

    private func acceptLoop() {
        while !stopped.load(ordering: .acquiring) {
            let client = accept(fd, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            let admitted = clients.withLock { set -> Bool in
                guard set.count < Self.maxClients else { return false }
                set.insert(client)
                return true
            }
            guard admitted else {
                UnixSocket.write(
                    client, Array("{\"ok\":false,\"error\":\"too many clients (\(Self.maxClients))\"}\n".utf8))
                close(client)
                continue
            }
            Self.setReceiveTimeout(client, seconds: idleTimeout)
            let t = Thread { [self] in
                serve(client)
                clients.withLock { _ = $0.remove(client) }
                close(client)
            }
            t.name = "daq.control.client"
            SignalMask.startingThread { t.start() }
        }
    }

    private func serve(_ client: Int32) {
        let reader = SocketLineReader(fd: client, limit: ControlRequest.lineLimit)
        while let line = reader.next() {
            // Parsed (and every number in it checked) by the engine's parser, the one the fuzz
            // target feeds: out of range is refused, never clamped, never trapped on.
            guard let request = ControlRequest(line: line) else { continue }
            switch request {
            case .stats:
                guard UnixSocket.write(client, Array((StatsJSON.encode(run: run, pipeline: pipeline) + "\n").utf8))
                else { return }
            case .tap(let pattern, let rate):
                tap(client, pattern: pattern, rate: rate)
                return
            case .refused(let why): reply(client, why) {}
            case .pause: reply(client, nil) { run.pause() }
            case .resume: reply(client, nil) { run.resume() }
            case .stop: reply(client, nil) { run.stop() }
            case .step(let path): reply(client, nil) { run.changeStep(to: path) }
            case .reload: reply(client, reload()) {}
            }
        }
    }

    /// Makes a blocking `recv` on `fd` give up after `seconds` (0: never).
    private static func setReceiveTimeout(_ fd: Int32, seconds: Double) {
        var limit = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1_000_000))
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    private func reply(_ client: Int32, _ refusal: String?, _ action: () -> Void) {
        if let refusal {
            var out: [UInt8] = Array(#"{"ok":false,"error":"#.utf8)
            JSONEncoding.appendString(refusal, to: &out)
            out.append(contentsOf: "}\n".utf8)
            UnixSocket.write(client, out)
            return
        }
        action()
        UnixSocket.write(client, Array("{\"ok\":true}\n".utf8))
    }

    private func tap(_ client: Int32, pattern: String, rate: Int?) {
        let names = run.componentNames.filter { fnmatch(pattern, $0, 0) == 0 }
        guard !names.isEmpty else {
            reply(
                client,
                "no component matches '\(PrintableText.escaped(pattern))'; components: \(run.componentNames.joined(separator: ", "))"
            ) {}
            return
        }
        let subscriber = TapSubscriber(components: Set(names), maxRate: rate ?? ControlRequest.defaultTapRate)
        hub.add(subscriber)
        defer { hub.remove(subscriber) }
        var header: [UInt8] = Array(#"{"tap":"components","names":["#.utf8)
        for (i, n) in names.enumerated() {
            if i > 0 { header.append(UInt8(ascii: ",")) }
            JSONEncoding.appendString(n, to: &header)
        }
        header.append(contentsOf: "]}\n".utf8)
        guard UnixSocket.write(client, header) else { return }
        // A tap client sends nothing more while it reads: no idle timeout for it.
        Self.setReceiveTimeout(client, seconds: 0)
        // The client closing its end is noticed on the next write, or here when it is idle.
        let watched = DispatchSemaphore(value: 0)
        let watcher = Thread {
            var byte: UInt8 = 0
            while recv(client, &byte, 1, 0) > 0 {}
            subscriber.close()
            watched.signal()
        }
        SignalMask.startingThread { watcher.start() }
        subscriber.serve(fd: client)
        // Wake the watcher and wait for it, so the descriptor is not closed (and reused) under it.
        shutdown(client, Int32(SHUT_RDWR))
        watched.wait()
    }
}
