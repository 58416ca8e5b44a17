import DAQCore
import DequeModule
import Foundation
import Synchronization

/// Fans the output of tapped components out to `daq tap` clients without ever holding the
/// pipeline back.
///
/// A stage hands each batch to ``deliver(_:)`` on its own queue; the hub only appends the
/// batch (copy-on-write, so not copied) to each interested subscriber's short queue, dropping
/// it when that queue is full. Encoding and writing happen on the subscriber's own thread,
/// which also thins the stream to its rate limit. A slow or stuck client therefore loses
/// samples — counted and reported to it — and the pipeline never waits for it.
final class TapHub: Sendable {
    private let run: PipelineRun
    private let subscribers = Mutex<[ObjectIdentifier: TapSubscriber]>([:])
    private let hooked = Mutex<Set<String>>([])

    init(run: PipelineRun) { self.run = run }

    /// Registers `subscriber` and hooks the components it wants that are not hooked yet.
    func add(_ subscriber: TapSubscriber) {
        subscribers.withLock { $0[ObjectIdentifier(subscriber)] = subscriber }
        let new = hooked.withLock { set -> [String] in
            let names = subscriber.components.filter { !set.contains($0) }
            set.formUnion(names)
            return Array(names)
        }
        for name in new { run.observe(component: name) { [weak self] batch in self?.deliver(batch, from: name) } }
    }

    func remove(_ subscriber: TapSubscriber) {
        _ = subscribers.withLock { $0.removeValue(forKey: ObjectIdentifier(subscriber)) }
    }

    /// A sink's batches carry their producer's stream, so the component is passed along.
    private func deliver(_ batch: Batch, from component: String) {
        // Offered under the hub's lock (each subscriber's own lock nests inside it, never the
        // other way round), so a batch costs no copy of the subscriber list.
        subscribers.withLock { all in
            for s in all.values where s.components.contains(component) { s.offer(batch) }
        }
    }

    /// Wakes every subscriber so it notices the run has ended.
    func closeAll() {
        for s in subscribers.withLock({ Array($0.values) }) { s.close() }
    }
}

/// One `daq tap` client's queue of batches and its sampling budget.
final class TapSubscriber: Sendable {
    let components: Set<String>
    /// Samples per second written at most; the rest are skipped and counted.
    let maxRate: Int
    /// The rates a client may ask for (``ControlRequest/tapRates``).
    static let rates = ControlRequest.tapRates
    private struct State {
        var queue = Deque<Batch>()
        var skipped = 0
        var closed = false
    }
    private let state = Mutex(State())
    private let signal = DispatchSemaphore(value: 0)
    private static let depth = 32

    /// A subscriber to `components`, at most `maxRate` samples a second (clamped to ``rates``).
    init(components: Set<String>, maxRate: Int) {
        self.components = components
        self.maxRate = min(max(maxRate, Self.rates.lowerBound), Self.rates.upperBound)
    }

    func offer(_ batch: Batch) {
        // Only the first batch after the writer emptied the queue wakes it: one wake-up per
        // writer turn, not one per batch, whatever the pipeline's rate.
        let wake = state.withLock { s -> Bool in
            guard !s.closed else { return false }
            guard s.queue.count < Self.depth else {
                s.skipped += batch.count
                return false
            }
            s.queue.append(batch)
            return s.queue.count == 1
        }
        if wake { signal.signal() }
    }

    func close() {
        state.withLock { $0.closed = true }
        signal.signal()
    }

    /// Writes tapped samples to `fd` until the client goes or the run ends: JSON Lines of
    /// samples, `{"tap":"descriptor","stream":NAME,"descriptor":{…}}` before a stream's first
    /// samples and again when its descriptor changes, and `{"tap":"skipped","samples":N}` after
    /// samples were left out.
    func serve(fd: Int32) {
        WatcherPriority.lowerCallingThread()
        var described: [String: StreamDescriptor] = [:]
        var budget = Double(maxRate)
        var last = DispatchTime.now().uptimeNanoseconds
        var out: [UInt8] = []
        // Swapped with the shared queue under the lock, so that nothing is allocated or freed
        // there: this thread runs at the lowest priority, and a stage offering a batch waits for
        // the lock.
        var batches = Deque<Batch>(minimumCapacity: Self.depth)
        while true {
            signal.wait()
            let (skippedBefore, closed) = state.withLock { s -> (Int, Bool) in
                swap(&s.queue, &batches)
                let k = s.skipped
                s.skipped = 0
                return (k, s.closed)
            }
            var skipped = skippedBefore
            out.removeAll(keepingCapacity: true)
            for batch in batches {
                let now = DispatchTime.now().uptimeNanoseconds
                budget = min(Double(maxRate), budget + Double(now - last) / 1e9 * Double(maxRate))
                last = now
                if let d = batch.descriptor, described[batch.stream] != d {
                    described[batch.stream] = d
                    Self.appendDescriptor(d, of: batch.stream, to: &out)
                }
                // The budget is at most `maxRate`, so it converts; compared first all the same.
                let take = budget >= Double(batch.count) ? batch.count : Int(max(budget, 0))
                // Evenly spaced rows, so a thinned stream still spans the whole batch.
                for k in 0..<take { SampleJSON.appendLine(batch, row: k * batch.count / take, to: &out) }
                budget -= Double(take)
                skipped += batch.count - take
            }
            batches.removeAll(keepingCapacity: true)
            if skipped > 0 { out.append(contentsOf: "{\"tap\":\"skipped\",\"samples\":\(skipped)}\n".utf8) }
            if !out.isEmpty, !UnixSocket.write(fd, out) { return }
            if closed { return }
            // At most 20 turns a second: a busy pipeline's batches gather meanwhile (the queue
            // drops past its depth, counted), so the tap costs the pipeline a lock per batch
            // and never a thread switch per batch.
            usleep(50_000)
        }
    }

    static func appendDescriptor(_ d: StreamDescriptor, of stream: String, to out: inout [UInt8]) {
        let line: Fields = ["tap": "descriptor", "stream": .string(stream), "descriptor": .object(d.jsonFields)]
        JSONEncoding.append(.object(line), to: &out)
        out.append(0x0A)
    }
}
