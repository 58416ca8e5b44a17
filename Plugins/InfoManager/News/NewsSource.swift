import DAQCore
import Foundation

/// `infomanager.news`: polls an Info Manager service's news every `interval` of the run clock
/// and emits one sample per item that is new or edited since the last poll (`id`, `language`,
/// `text`, `updated`, `change`: `new` or `edited`). The first poll emits every item.
///
/// The source makes no timer of its own: between polls it asks the engine to read it again at
/// the next poll's run-clock time (``StageContext/requestTick(atUptime:)``), and an answer
/// comes back to the stage's queue through ``StageContext/perform(_:)``. Under `clock:
/// virtual`, where time moves only with data, the news is read once and the source ends.
///
/// A failed poll is reported once (and once more when the service answers again), and the
/// next poll comes at the usual time; a run does not end because the news is unavailable.
public final class NewsSource: SourcePlugin {
    public typealias Configuration = NewsSettings

    public static let typeName = "infomanager.news"
    public static let summary =
        "Polls an Info Manager service's news and emits each item that is new or edited."
    public static let output = StreamOutput(
        .own,
        [
            OutputField("id", .string, "the item's id"),
            OutputField("language", .string, "the language of `text`, as the service chose it"),
            OutputField("text", .string, "the item's text"),
            OutputField(
                "updated", .string, "when it last changed, ISO 8601 as the service states it; null when unstated"),
            OutputField("change", .string, "new or edited since the last poll"),
        ],
        note: "when the news changes, on the run clock; origin: the service's host")

    private enum State {
        /// The next poll is due at run-clock `until`; `outage` is the failure last reported.
        case waiting(until: Double, outage: String?)
        /// A request is open.
        case asking(outage: String?)
        /// The answer is in, not yet read.
        case answered(Result<NewsAnswer?, InfoManagerClient.Failure>, outage: String?)
        /// Virtual clock: the one poll has been read.
        case done
    }

    private let settings: NewsSettings
    private let once: Bool
    private var client: InfoManagerClient?
    private var state = State.waiting(until: 0, outage: nil)
    private var changes = NewsChanges()

    public init(configuration: NewsSettings, context: PluginContext) throws {
        settings = configuration
        once = context.clock == .virtual
    }

    /// Declared from configuration alone: describing asks the service nothing. Items come when
    /// the news changes, not at the polling rate.
    public func describe(context: PluginContext) throws -> StreamDescriptor {
        var d = Self.output.descriptor(input: nil)
        d.origin = StreamOrigin(plugin: Self.typeName, host: URL(string: settings.baseURL)?.host)
        d.metadata["base_url"] = settings.baseURL
        return d
    }

    public func start(context: StageContext) throws {
        let token =
            settings.tokenEnv.isEmpty ? nil : ProcessInfo.processInfo.environment[settings.tokenEnv]
        client = InfoManagerClient(
            baseURL: settings.baseURL, languages: settings.languages.tags, inputType: nil, token: token,
            timeout: settings.timeout.value, retries: settings.retries, backoff: 0.1, maxInFlight: 1)
    }

    public func read(into batch: inout Batch, limit: Int, context: StageContext) throws
        -> SourceStatus
    {
        switch state {
        case .waiting(let until, let outage):
            guard context.clock.now() >= until || once else {
                context.requestTick(atUptime: until)
                return .idle
            }
            ask(outage: outage, context: context)
            return .idle
        case .asking:
            return .idle
        case .answered(let result, let outage):
            let now = context.clock.now()
            let reported = report(result, outage: outage, context: context)
            if case .success(let news) = result {
                append(changes.update(news), at: now, to: &batch, context: context)
            }
            if once {
                state = .done
                return .finished
            }
            let next = now + settings.interval.value
            state = .waiting(until: next, outage: reported)
            context.requestTick(atUptime: next)
            return .idle
        case .done:
            return .finished
        }
    }

    private func ask(outage: String?, context: StageContext) {
        guard let client else { return }
        state = .asking(outage: outage)
        let source = QueueConfined(self)
        client.news { result in
            context.perform {
                guard let self = source.value, case .asking(let outage) = self.state else { return }
                self.state = .answered(result, outage: outage)
                context.wake()
            }
        }
    }

    /// Warns about a failure unless it is the one already reported; says when the service is
    /// back. Returns the failure now outstanding.
    private func report(
        _ result: Result<NewsAnswer?, InfoManagerClient.Failure>, outage: String?, context: StageContext
    ) -> String? {
        switch result {
        case .success:
            if outage != nil { context.notice("the news service answers again") }
            return nil
        case .failure(let failure):
            if failure.description != outage {
                context.warn(
                    "news: \(failure)" + (once ? "" : "; polling again in \(settings.interval.value) s"))
            }
            return failure.description
        }
    }

    private func append(
        _ changed: [(item: NewsItemAnswer, change: NewsChanges.Change)], at uptime: Double,
        to batch: inout Batch, context: StageContext
    ) {
        guard !changed.isEmpty else { return }
        var columns = [[Value]](repeating: [], count: 5)
        for (item, change) in changed {
            batch.appendRow(uptime: uptime, timestamp: context.startDate + uptime)
            columns[0].append(.string(item.id))
            columns[1].append(.string(item.language))
            columns[2].append(.string(item.text))
            columns[3].append(item.updated.map(Value.string) ?? .null)
            columns[4].append(.string(change.rawValue))
        }
        for (i, name) in ["id", "language", "text", "updated", "change"].enumerated() {
            batch.setColumn(Column(name: name, values: columns[i]))
        }
    }

    public func stop(context: StageContext) {
        // Not `shutdown()`: that waits for the connections, and a source never blocks its queue.
        client?.shutdownInBackground()
        client = nil
    }
}
