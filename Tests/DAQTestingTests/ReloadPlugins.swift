import DAQCore
import Dispatch
import Synchronization

/// What the reload tests feed and see, per pipeline name: values a `feed` source hands out,
/// and every instance's lifecycle and data, in the order they happened.
final class ReloadBoard: Sendable {
    private struct State {
        var queued: [String: [Int]] = [:]
        var next = 0
        var sources: [String: [StageContext]] = [:]
        var log: [String] = []
        var received: [(sink: String, v: Int)] = []
    }
    private let state = Mutex(State())
    /// Signalled on every change, so a waiter looks again instead of sleeping.
    private let changed = DispatchSemaphore(value: 0)

    static let boards = Mutex<[String: ReloadBoard]>([:])
    static func named(_ name: String) -> ReloadBoard {
        boards.withLock { b in
            if let board = b[name] { return board }
            let board = ReloadBoard()
            b[name] = board
            return board
        }
    }

    /// Queues `values` for feed source `source` and wakes it; what a stopped instance left
    /// waits for the next one.
    func feed(_ values: [Int], to source: String = "src") {
        let sources = state.withLock { s -> [StageContext] in
            s.queued[source, default: []] += values
            return s.sources[source] ?? []
        }
        for c in sources { c.wake() }
    }

    func take(for source: String, limit: Int) -> [(v: Int, seq: Int)] {
        state.withLock { s in
            let queued = s.queued[source] ?? []
            let n = min(limit, queued.count)
            s.queued[source] = Array(queued.dropFirst(n))
            return queued.prefix(n).map { v in
                defer { s.next += 1 }
                return (v, s.next)
            }
        }
    }

    func attach(_ context: StageContext) { state.withLock { $0.sources[context.name, default: []].append(context) } }
    func detach(_ context: StageContext) { state.withLock { $0.sources[context.name]?.removeAll { $0 === context } } }

    func note(_ line: String) {
        state.withLock { $0.log.append(line) }
        changed.signal()
    }

    func received(by sink: String, _ values: [Int]) {
        state.withLock { s in s.received += values.map { (sink, $0) } }
        changed.signal()
    }

    var log: [String] { state.withLock { $0.log } }
    func values(of sink: String) -> [Int] { state.withLock { $0.received.filter { $0.sink == sink }.map(\.v) } }

    /// Waits until `condition` holds; false after `seconds` (a hang guard, not a timing assumption).
    func wait(seconds: Double = 30, until condition: (ReloadBoard) -> Bool) -> Bool {
        let deadline = DispatchTime.now() + seconds
        while !condition(self) {
            if changed.wait(timeout: deadline) == .timedOut { return condition(self) }
        }
        return true
    }
}

/// A source handing out what the test feeds, stamped with its own `tag`; idle in between.
final class FeedSource: SourcePlugin {
    struct Configuration: PluginConfiguration {
        @Setting(required: "stamped on every sample") var tag: String
    }
    static let typeName = "feed"
    static let summary = "test source fed by the test"
    let tag: String
    let board: ReloadBoard
    init(configuration: Configuration, context: PluginContext) throws {
        tag = configuration.tag
        board = ReloadBoard.named(context.pipelineName)
    }
    func start(context: StageContext) throws {
        board.attach(context)
        board.note("start \(context.name) \(tag)")
    }
    func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus {
        for (v, seq) in board.take(for: context.name, limit: limit) {
            let u = Double(seq) / 1000
            batch.append(
                Sample(timestamp: context.startDate + u, uptime: u, fields: ["v": .int(Int64(v)), "tag": .string(tag)]))
        }
        return .idle
    }
    func stop(context: StageContext) {
        board.detach(context)
        board.note("stop \(context.name) \(tag)")
    }
}

/// A sink noting its start, every data value and its finish on the board, as `name/tag`.
final class BoardSink: SinkPlugin {
    struct Configuration: PluginConfiguration {
        @Setting(required: "names this instance") var tag: String
        @Setting("start throws") var failStart = false
    }
    static let typeName = "board"
    static let summary = "test sink that reports to the reload board"
    struct StartFailure: Error, CustomStringConvertible { var description: String { "cannot open the device" } }
    let config: Configuration
    let board: ReloadBoard
    struct BuildFailure: Error, CustomStringConvertible { var description: String { "tag 'broken' cannot be built" } }
    init(configuration: Configuration, context: PluginContext) throws {
        if configuration.tag == "broken" { throw BuildFailure() }
        config = configuration
        board = ReloadBoard.named(context.pipelineName)
    }
    func start(context: StageContext) throws {
        if config.failStart { throw StartFailure() }
        board.note("start \(context.name)/\(config.tag)")
    }
    func write(_ batch: Batch, context: StageContext) throws {
        guard let v = batch.column("v") else { return }
        let values = (0..<batch.count).filter { batch.kinds[$0] == .data }.compactMap { v[$0].intValue.map(Int.init) }
        board.received(by: "\(context.name)/\(config.tag)", values)
    }
    func finish(context: StageContext) throws {
        board.note("finish \(context.name)/\(config.tag)")
    }
}

/// A transform whose output comes a turn after `process`, like a lookup on a server: it holds
/// each batch, hands it on from another queue, and takes no input until then.
final class LaterTransform: TransformPlugin, DeferredWork, @unchecked Sendable {
    struct Configuration: PluginConfiguration { @Setting(required: "added to v") var add: Int }
    static let typeName = "later"
    static let summary = "test transform that emits after process returns"
    let add: Int64
    /// Touched on the stage's queue only.
    private var held = 0
    init(configuration: Configuration, context: PluginContext) throws { add = Int64(configuration.add) }
    var acceptsInput: Bool { held == 0 }
    var hasPendingWork: Bool { held > 0 }
    func process(_ batch: inout Batch, context: StageContext) throws {
        var out = batch
        if let v = out.column("v") {
            out.setColumn(Column(name: "v", ints: (0..<out.count).map { (v[$0].intValue ?? 0) + add }))
        }
        batch = Batch()
        held += 1
        let result = out
        DispatchQueue.global().async {
            context.perform {
                context.emit(result)
                self.held -= 1
                context.wake()
            }
        }
    }
}
