import DAQCore
import Foundation
import NIOCore
import Synchronization

/// `postgres`: every row into a PostgreSQL table, by binary `COPY`, one transaction per flush.
///
/// The table (`<pipeline>_<component>` unless `table` names one) is created from the input
/// streams' descriptors when missing (``PostgresTableLayout``); a field that appears mid-run
/// adds its column. With TimescaleDB installed in the database it becomes a hypertable on `time`.
///
/// Exactly once: each flush carries the run's id and its number, and its transaction inserts
/// them into `daq_flushes` before its rows; a flush sent again after its COMMIT's answer was
/// lost meets that row and writes nothing. Rows are *delivered* at COMMIT. While the server is
/// away, sealed flushes wait in memory, at most `queue` rows (a full queue holds the pipeline
/// back, holding no thread), and go in, in order, once it is back. With `spool: DIR` each
/// sealed flush is also written to the ``MessageSpool`` the `mqtt` sink uses, so flushes a
/// killed run or a run that ended during an outage never committed go in at the next run's start.
///
/// Bad credentials, a missing database or an unreachable server fail the run's start.
///
/// # Thread safety
/// Confined to its stage's serial queue: postgres-nio's work runs in tasks whose results come
/// back through ``StageContext/perform(_:)``, and every timer is the stage's.
public final class PostgresSink: SinkPlugin, DeferredWork {
    /// The sink's keys.
    public struct Configuration: PluginConfiguration {
        @Setting(
            required:
                "The server: postgres://USER@HOST[:PORT]/DATABASE, or postgres://USER@/DATABASE?host=/socket/dir; sslmode=disable|prefer|require."
        )
        var url: String
        @Setting("Environment variable holding the password (never put it in YAML).") var passwordEnv: String?
        @Setting(whenUnset: "<pipeline>_<component>", "The table; created from the stream descriptors when missing.")
        var table: String?
        @Setting("Make the table a TimescaleDB hypertable on `time` when the extension is installed.")
        var hypertable = true
        @Setting("Rows per transaction at most; the engine's periodic flush commits fewer.") var flushRows = 50_000
        @Setting("Rows held while the server is away; a full queue holds the pipeline back.") var queue = 1_000_000
        @Setting("Time allowed to connect and log in.") var connectTimeout = Seconds(5)
        @Setting("First delay before reconnecting; doubled after each failed attempt.") var reconnectDelay = Seconds(
            0.2)
        @Setting("Longest delay between reconnect attempts.") var maxReconnectDelay = Seconds(5)
        @Setting("At the end, how long to wait for the server to take what is queued.") var drainTimeout = Seconds(30)
        @Setting(
            "Time one flush's transaction may take; past it the connection is taken for lost, closed, and the flush sent again once reconnected (exactly once still holds)."
        ) var commitTimeout = Seconds(30)
        @Setting(
            "Directory keeping sealed flushes on disk until committed; the next run commits what a killed run or an outage left."
        ) var spool: String?

        public init() {}

        /// Checks what the types cannot: a URL that parses, positive sizes and delays.
        /// - Throws: ``ConfigIssue`` naming the key.
        public func validate() throws {
            if case .failure(let e) = PostgresTarget.parse(url) { throw $url.issue(e.text) }
            if let env = passwordEnv, env.isEmpty { throw $passwordEnv.issue("name an environment variable") }
            if let table, table.isEmpty || table.utf8.count > 63 || table.contains("\0") {
                throw $table.issue("must be 1 to 63 bytes")
            }
            if flushRows < 1 { throw $flushRows.issue("must be at least 1") }
            if queue < flushRows { throw $queue.issue("must be at least flush_rows (\(flushRows))") }
            if !(connectTimeout.value > 0) { throw $connectTimeout.issue("must be greater than 0") }
            if !(commitTimeout.value > 0) { throw $commitTimeout.issue("must be greater than 0") }
            if !(reconnectDelay.value > 0) { throw $reconnectDelay.issue("must be greater than 0") }
            if maxReconnectDelay < reconnectDelay {
                throw $maxReconnectDelay.issue("must not be less than reconnect_delay")
            }
            if drainTimeout.value < 0 { throw $drainTimeout.issue("must not be negative") }
            if let spool, spool.isEmpty { throw $spool.issue("name a directory") }
        }
    }

    /// `type: postgres`.
    public static let typeName = "postgres"
    /// What `daq plugins` prints.
    public static let summary =
        "Rows into a PostgreSQL (or TimescaleDB) table by binary COPY, exactly once, queued while the server is away."

    /// Where the sink stands; one case at a time, each carrying what only it needs.
    private enum State {
        /// Built, not started.
        case idle
        /// Connecting; `start` is the run's start waiting for it, `nil` on a reconnect.
        case connecting(start: StartCompletion?)
        /// Connected, no transaction open.
        case ready(PostgresSession)
        /// A flush's transaction is open; `watchdog` gives the connection up if it never answers
        /// (a server stopped between two flushes can leave the next one waiting on a dead link).
        case committing(PostgresSession, watchdog: StageTask)
        /// The server went away; `retry` reconnects.
        case away(retry: StageTask)
        /// Closing the connection at the end.
        case closing
        /// Closed.
        case closed
    }

    private let config: Configuration
    private let target: PostgresTarget
    private var password: String?
    private let table: String
    private let component: String
    private let runID: String
    private let spoolPath: String?
    private var spool: PostgresFlushSpool?
    private var state = State.idle
    private var builder: PostgresFlushBuilder
    private var queued: [PostgresFlush] = []
    private var queuedRows = 0
    private var committedRows = 0
    /// Rows of flushes earlier runs left in the spool, committed by this one.
    private var committedFromSpool = 0
    private var attempts = 0
    private var isHypertable = false
    private var drain = PostgresDrain.running
    private var end: EndCompletion?
    private var stage: StageContext?
    private static let connectionIDs = ConnectionCounter()

    /// Room in the queue: a full one holds the pipeline back until a flush commits.
    public var acceptsInput: Bool { queuedRows + builder.rows < config.queue }

    /// After the input ends, the stage stays open while flushes wait, for at most
    /// `drain_timeout`, without a thread waiting: each commit wakes it.
    public var hasPendingWork: Bool {
        guard case .draining = drain else { return false }
        return !queued.isEmpty
    }

    /// Builds the sink; the password is read at start, so describing a pipeline needs none.
    /// - Throws: ``PostgresSinkError`` when `url` does not parse.
    public init(configuration: Configuration, context: PluginContext) throws {
        config = configuration
        guard case .success(let t) = PostgresTarget.parse(configuration.url) else {
            throw PostgresSinkError("bad url '\(SecretText.url(configuration.url))'")
        }
        target = t
        table =
            configuration.table
            ?? PostgresSQL.defaultTable(pipeline: context.pipelineName, component: context.componentName)
        component = context.componentName
        runID = UUID().uuidString.lowercased()
        spoolPath = configuration.spool.map(context.resolve)
        builder = PostgresFlushBuilder(
            layout: PostgresTableLayout(), origin: PostgresFlushOrigin(runID: runID, component: component, table: table)
        )
    }

    /// Connects, creates or widens the table; the run starts once that is done, and fails to
    /// start when it cannot be.
    /// - Throws: ``PostgresSinkError`` when `password_env` names a variable that is not set;
    ///   ``SpoolError`` when the spool cannot be opened or read.
    public func start(context: StageContext) throws {
        if let env = config.passwordEnv {
            guard let p = ProcessInfo.processInfo.environment[env] else {
                throw PostgresSinkError("password_env names \(env), which is not set in the environment")
            }
            password = p
        }
        stage = context
        if let spoolPath { try openSpool(spoolPath, context: context) }
        let descriptors = context.inputDescriptors.sorted { $0.key < $1.key }.map(\.value)
        builder = PostgresFlushBuilder(
            layout: PostgresTableLayout(descriptors: descriptors),
            origin: PostgresFlushOrigin(runID: runID, component: component, table: table))
        let completion = context.completeStartLater(waitingAtMost: .seconds(config.connectTimeout.value + 10))
        state = .connecting(start: completion)
        connect(context: context)
    }

    /// Encodes the rows of `batch` into the open flush, sealing it at `flush_rows`.
    public func write(_ batch: Batch, context: StageContext) throws {
        let added = builder.newColumns(for: batch)
        if !added.isEmpty {
            seal()
            builder.widen(added)
        }
        var row = 0
        while row < batch.count {
            let take = min(batch.count - row, config.flushRows - builder.rows)
            builder.append(batch, rows: row..<row + take)
            row += take
            if builder.rows >= config.flushRows { seal() }
        }
        pump(context: context)
    }

    /// Seals the rows written since the last flush into a transaction of their own.
    public func flush(context: StageContext) throws {
        seal()
        pump(context: context)
    }

    /// The input ended: what is queued still goes in, for at most `drain_timeout`.
    public func inputEnded() {
        guard case .running = drain, let context = stage else { return }
        seal()
        pump(context: context)
        let me = QueueConfined(self)
        let timer = context.after(.seconds(config.drainTimeout.value)) {
            guard let sink = me.value, case .draining = sink.drain else { return }
            sink.drain = .timedOut
            context.wake()
        }
        drain = .draining(timer: timer)
    }

    /// Commits what is left (the stop marker) and closes; what the server never took is
    /// counted failed.
    public func finish(context: StageContext) throws {
        seal()
        drain.end()
        report(context: context)
        end = context.completeEndLater(waitingAtMost: .seconds(config.drainTimeout.value + 5))
        if queued.isEmpty {
            close(context: context)
        } else {
            let me = QueueConfined(self)
            let giveUp = context.after(.seconds(config.drainTimeout.value)) { me.value?.close(context: context) }
            drain = .closing(timer: giveUp)
            pump(context: context)
        }
    }

    deinit {
        // A run cancelled before `finish`: nothing may keep the connection open.
        switch state {
        case .ready(let s), .committing(let s, _): Task { await s.close() }
        default: break
        }
    }

    // MARK: Connection

    private func connect(context: StageContext) {
        let me = QueueConfined(self)
        let (target, password, timeout) = (self.target, self.password, config.connectTimeout.value)
        let (table, layout, hypertable) = (self.table, builder.layout, config.hypertable)
        let id = Self.connectionIDs.next()
        Task {
            let result: Result<(PostgresSession, PostgresTableLayout, Bool), PostgresSinkError>
            do {
                let connection = try await PostgresSession.connect(
                    target: target, password: password, connectTimeout: timeout, id: id)
                let session = PostgresSession(connection: connection, target: target, table: table)
                do {
                    let (prepared, isHypertable) = try await session.prepare(layout, hypertable: hypertable)
                    result = .success((session, prepared, isHypertable))
                } catch {
                    await session.close()
                    throw error
                }
            } catch let e as PostgresSinkError {
                result = .failure(e)
            } catch {
                result = .failure(PostgresSinkError(error, doing: "cannot connect to", target: target))
            }
            context.perform { me.value?.connected(result, context: context) }
        }
    }

    private func connected(
        _ result: Result<(PostgresSession, PostgresTableLayout, Bool), PostgresSinkError>, context: StageContext
    ) {
        guard case .connecting(let start) = state else {
            // Closed meanwhile: the connection is not wanted.
            if case .success(let (session, _, _)) = result { Task { await session.close() } }
            return
        }
        switch result {
        case .success(let (session, prepared, hypertable)):
            if builder.rows == 0 && !queued.contains(where: { $0.origin.runID == runID }) { builder.adopt(prepared) }
            isHypertable = hypertable
            state = .ready(session)
            if start == nil {
                context.notice("reconnected to \(target.display); \(queuedRows) rows waiting go in now")
            }
            attempts = 0
            report(context: context)
            start?.succeed()
            pump(context: context)
        case .failure(let error):
            if let start {
                state = .closed
                // The run does not start: the spool's directory is free for the next one.
                spool?.close()
                start.fail(error)
                return
            }
            away(error, context: context)
        }
    }

    /// The server went away: reconnect after a backoff; flushes wait meanwhile.
    private func away(_ error: PostgresSinkError, context: StageContext) {
        if attempts == 0 {
            context.warn("\(error); \(queuedRows + builder.rows) rows wait until the server is back")
        }
        let delay = min(
            config.reconnectDelay.value * pow(2, Double(min(attempts, 16))), config.maxReconnectDelay.value)
        attempts += 1
        let me = QueueConfined(self)
        let retry = context.after(.seconds(delay)) {
            guard let sink = me.value, case .away = sink.state else { return }
            sink.state = .connecting(start: nil)
            sink.connect(context: context)
        }
        state = .away(retry: retry)
    }

    // MARK: Flushes

    /// Queues the open flush; with a spool, writes it there too. A spool that refuses it (a
    /// full disk) does not fail the rows, which the engine has already handed over: this flush
    /// and the ones after it stay in memory only, as without a spool, and the sink warns once.
    private func seal() {
        guard var flush = builder.seal() else { return }
        queuedRows += flush.rows
        if var kept = spool {
            if let refusal = kept.keep(&flush) {
                stage?.warn("\(refusal); from now on flushes wait in memory only until the server takes them")
            }
            spool = kept
            stage?.spooled(samples: kept.spooledSamples)
        }
        queued.append(flush)
    }

    /// Opens the spool; flushes earlier runs left there go first, each under its own run id.
    /// - Throws: ``SpoolError`` (see ``PostgresFlushSpool/open(_:server:)``).
    private func openSpool(_ path: String, context: StageContext) throws {
        let (spool, flushes) = try PostgresFlushSpool.open(path, server: target.display)
        self.spool = spool
        queued = flushes + queued
        let rows = flushes.reduce(0) { $0 + $1.rows }
        queuedRows += rows
        context.spooled(samples: spool.spooledSamples)
        if !flushes.isEmpty {
            context.notice(
                "committing \(rows) rows (\(flushes.count) flushes) left in the spool \(path) by an earlier run first")
        }
    }

    /// The flush is settled (committed now or before, or refused for good): the spool lets it go.
    private func settled(_ flush: PostgresFlush, context: StageContext) {
        guard let spool else { return }
        spool.settle(flush)
        context.spooled(samples: spool.spooledSamples)
    }

    /// Commits the oldest queued flush when connected and idle.
    private func pump(context: StageContext) {
        guard case .ready(let session) = state, let flush = queued.first else { return }
        let me = QueueConfined(self)
        let timeout = config.commitTimeout.value
        let watchdog = context.after(.seconds(timeout)) {
            guard let sink = me.value, case .committing(let current, _) = sink.state,
                current.connection === session.connection
            else { return }
            Task { await session.close() }
            sink.away(
                PostgresSinkError(
                    "flush \(flush.sequence) to \(sink.table) on \(sink.target.display) got no answer within commit_timeout (\(timeout) s)",
                    isConnectionLoss: true),
                context: context)
        }
        state = .committing(session, watchdog: watchdog)
        Task {
            let result: Result<PostgresCommitOutcome, PostgresSinkError>
            do {
                result = .success(try await session.commit(flush))
            } catch let e as PostgresSinkError {
                result = .failure(e)
            } catch {
                result = .failure(PostgresSinkError(error, doing: "cannot write to", target: session.target))
            }
            context.perform { me.value?.committed(flush, result, session: session, context: context) }
        }
    }

    private func committed(
        _ flush: PostgresFlush, _ result: Result<PostgresCommitOutcome, PostgresSinkError>, session: PostgresSession,
        context: StageContext
    ) {
        guard case .committing(_, let watchdog) = state else { return }
        watchdog.cancel()
        switch result {
        case .success(let outcome):
            queued.removeFirst()
            queuedRows -= flush.rows
            if flush.origin.runID == runID { committedRows += flush.rows } else { committedFromSpool += flush.rows }
            settled(flush, context: context)
            if outcome == .alreadyCommitted {
                context.notice("flush \(flush.sequence) was committed before its answer was lost; not written again")
            }
            context.delivered(samples: flush.rows, bytes: flush.payload.readableBytes)
            report(context: context)
            state = .ready(session)
        case .failure(let error) where error.isConnectionLoss || session.connection.isClosed:
            Task { await session.close() }
            away(error, context: context)
        case .failure(let error):
            // The server refused the rows themselves: sending them again cannot help.
            queued.removeFirst()
            queuedRows -= flush.rows
            if flush.origin.runID == runID {
                // This run's rows, refused as they are: kept in the spool, they would be refused
                // at every run's start.
                context.failed(samples: flush.rows, message: "\(error)")
                settled(flush, context: context)
            } else if let spoolPath {
                // An earlier run's rows exist nowhere else: they stay in the spool (counted there,
                // not failed) for a run after the cause is fixed.
                context.warn(
                    "flush \(flush.sequence) of run \(flush.origin.runID) stays in the spool \(spoolPath): \(error)")
            }
            state = .ready(session)
        }
        context.wake()
        if case .closing = drain, queued.isEmpty { return close(context: context) }
        pump(context: context)
    }

    /// Ends the stage: closes the connection; what is still queued waits in the spool for the
    /// next run, or without one is failed.
    private func close(context: StageContext) {
        let waiting = queued.filter { $0.spooled != nil }.reduce(0) { $0 + $1.rows }
        if waiting > 0, let spoolPath {
            context.warn(
                "\(waiting) rows not committed on \(target.display) within drain_timeout (\(config.drainTimeout.value) s) wait in the spool \(spoolPath) for the next run"
            )
        }
        if queuedRows > waiting {
            context.failed(
                samples: queuedRows - waiting,
                message:
                    "not committed to \(table) on \(target.display) within drain_timeout (\(config.drainTimeout.value) s)"
            )
        }
        queued = []
        queuedRows = 0
        if let spool {
            spool.close()
            context.spooled(samples: spool.spooledSamples)
        }
        drain.end()
        report(context: context)
        let previous = state
        state = .closing
        let me = QueueConfined(self)
        let done: @Sendable () -> Void = {
            context.perform {
                guard let sink = me.value else { return }
                sink.state = .closed
                sink.end?.succeed()
                sink.end = nil
            }
        }
        switch previous {
        case .ready(let s), .committing(let s, _):
            if case .committing(_, let watchdog) = previous { watchdog.cancel() }
            Task {
                await s.close()
                done()
            }
        case .away(let retry):
            retry.cancel()
            done()
        default: done()
        }
    }

    /// Records what went where, for the run summary and the manifest.
    private func report(context: StageContext) {
        context.recordResult([
            "postgres": .object([
                "server": .string(target.display),
                "table": .string(table),
                "rows": .int(Int64(committedRows)),
                "from_spool": .int(Int64(committedFromSpool)),
                "run_id": .string(runID),
                "hypertable": .bool(isHypertable),
            ])
        ])
    }
}

/// Where the sink stands in waiting for the server once its input has ended.
enum PostgresDrain {
    case running
    case draining(timer: StageTask)
    case timedOut
    case closing(timer: StageTask)
    case ended

    mutating func end() {
        switch self {
        case .draining(let t), .closing(let t): t.cancel()
        default: break
        }
        self = .ended
    }
}

/// Numbers for postgres-nio's connection ids, which its logs carry.
///
/// # Thread safety
/// One `Mutex`.
final class ConnectionCounter: Sendable {
    private let value = Mutex(0)
    func next() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }
}
