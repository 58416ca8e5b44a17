import DAQCore
import Synchronization

/// A thread-safe list that harness callbacks append to.
final class Collector<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])
    func append(_ e: Element) { items.withLock { $0.append(e) } }
    func append(contentsOf e: [Element]) { items.withLock { $0.append(contentsOf: e) } }
    func take() -> [Element] {
        items.withLock {
            let all = $0
            $0 = []
            return all
        }
    }
    var all: [Element] { items.withLock { $0 } }
}

/// A sink that keeps every batch it is given, for tests: `type: collect`.
public final class CollectSink: SinkPlugin {
    public struct Configuration: PluginConfiguration { public init() {} }
    public static let typeName = "collect"
    public static let summary = "Keeps every sample in memory, for tests (DAQTesting)."

    private let store = Collector<Sample>()
    private let flushes = Mutex(0)

    public init(configuration: Configuration, context: PluginContext) throws {}

    public func write(_ batch: Batch, context: StageContext) throws {
        store.append(contentsOf: batch.samples)
    }

    public func flush(context: StageContext) throws {
        flushes.withLock { $0 += 1 }
    }

    /// Every sample written so far, markers included.
    public var samples: [Sample] { store.all }
}

extension PluginDescriptor {
    /// The `collect` sink of ``CollectSink``.
    public static let collect = PluginDescriptor.sink(CollectSink.self, module: "DAQTesting")
}
