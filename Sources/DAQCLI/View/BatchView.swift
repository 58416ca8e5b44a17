import DAQCore
import Dispatch
import Foundation
import Synchronization

/// `daq batch --view`: the batch's progress per recording, and the recording started last shown
/// as `daq run --view` shows a run.
///
/// The run shown gets a control socket of its own for as long as it is shown (so `daq top` and
/// `daq tap` reach it too), and the view follows it there; when a newer run starts, the socket
/// moves to it and the page clears and follows.
///
/// # Thread safety
/// One thread of its own polls the runner once a second; `stop()` ends it and waits for it.
final class BatchView: Sendable {
    private let server = ViewServer()
    private let runner: BatchRunner
    private let pipeline: String
    private let stopped = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)

    /// A view of `runner`'s batch of pipeline `pipeline` (its name).
    init(runner: BatchRunner, pipeline: String) {
        self.runner = runner
        self.pipeline = pipeline
    }

    /// Serves the view at `listen` and starts following the batch.
    /// - Returns: the URL to open.
    /// - Throws: ``ViewServerError`` when the address cannot be bound.
    func start(listen: ViewListen, access: ViewAccess) throws -> String {
        let url = try server.start(socket: nil, listen: listen, access: access)
        // Not lowered: this thread starts each recording's control server, whose threads would
        // inherit its priority (see ``WatcherPriority``).
        let t = Thread { [self] in follow() }
        t.name = "daq.view.batch"
        SignalMask.startingThread { t.start() }
        return url
    }

    /// Publishes the final progress, ends the thread and closes the view.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wake.signal()
        ended.wait()
        server.stop()
    }

    private func follow() {
        var shown: ObjectIdentifier?
        var control: ControlServer?
        while true {
            let done = stopped.load(ordering: .acquiring)
            if !done, let (input, run) = runner.current, ObjectIdentifier(run) != shown {
                shown = ObjectIdentifier(run)
                control?.stop()
                control = try? ControlServer(run: run, pipeline: pipeline) { "a batch's runs are not reloaded" }
                server.follow(socket: control?.path, title: input)
            }
            server.hub.publish(batch: progress())
            if done { break }
            // A semaphore rather than a sleep, so that stop() ends the wait at once.
            _ = wake.wait(timeout: .now() + .seconds(1))
        }
        control?.stop()
        ended.signal()
    }

    /// `{"pipeline","done","total","samples","elapsed","current","recordings":[{"input","status"}]}`.
    private func progress() -> [UInt8] {
        let (done, samples, total) = runner.progress
        var out: [UInt8] = Array(#"{"pipeline":"#.utf8)
        JSONEncoding.appendString(pipeline, to: &out)
        out.append(contentsOf: #","done":\#(done),"total":\#(total),"samples":\#(samples),"elapsed":"#.utf8)
        JSONEncoding.appendDouble(Date().timeIntervalSince(runner.started), to: &out)
        out.append(contentsOf: #","current":"#.utf8)
        if let current = runner.current?.input {
            JSONEncoding.appendString(current, to: &out)
        } else {
            out.append(contentsOf: "null".utf8)
        }
        out.append(contentsOf: #","recordings":["#.utf8)
        // A batch of thousands lists its first thousand; the counts above cover them all.
        for (i, r) in runner.statuses.prefix(1000).enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: #"{"input":"#.utf8)
            JSONEncoding.appendString(r.input, to: &out)
            out.append(contentsOf: #","status":"#.utf8)
            JSONEncoding.appendString(r.status, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: "]}".utf8)
        return ViewFrame.sse("batch", out)
    }
}
