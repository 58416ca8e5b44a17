import DAQCore
import DAQStandard
import Synchronization
import Testing

/// Reloading a running pipeline in the engine: every kind of change, with every value fed
/// accounted for, and the order in which old instances end and new ones start.
@Suite("Reload in the engine", .timeLimit(.minutes(20)))
struct ReloadEngineTests {
    static let registry = try! PluginRegistry(
        StandardPlugins.all + [.source(FeedSource.self), .sink(BoardSink.self), .transform(LaterTransform.self)])

    /// A started run of pipeline `name` on the virtual clock, and its board.
    struct Running {
        let name: String
        let run: PipelineRun
        let board: ReloadBoard

        init(_ name: String, _ body: String) throws {
            self.name = name
            board = ReloadBoard.named(name)
            run = try PipelineRun(spec: Self.spec(name, body), options: RunOptions(batchSize: 64, flushInterval: 0))
            try run.start()
        }

        static func spec(_ name: String, _ body: String) throws -> PipelineSpec {
            try PipelineLoader(registry: ReloadEngineTests.registry, environment: [:])
                .load(text: "name: \(name)\nclock: virtual\n" + body, file: "\(name).yaml")
        }

        func reload(_ body: String) throws -> ReloadReport {
            try run.reload(Self.spec(name, body))
        }

        /// Feeds `values` and waits until `sink` has them all.
        func feed(_ values: [Int], to source: String = "src", reaching sink: String) -> Bool {
            let before = board.values(of: sink).count
            board.feed(values, to: source)
            return board.wait { $0.values(of: sink).count >= before + values.count }
        }

        func stop() -> RunResult {
            run.stop()
            return run.wait()
        }
    }

    static func pipeline(source: String = "a", sink: String = "one", extra: String = "") -> String {
        """
        sources:
          src: {type: feed, tag: \(source)}
        sinks:
          out: {type: board, tag: \(sink), inputs: [src]}
        \(extra)
        """
    }

    @Test func aChangedSinkDrainsStopsAndStartsWithNothingLostOrDoubled() throws {
        let p = try Running("reload-sink", Self.pipeline())
        #expect(p.feed(Array(0..<100), reaching: "out/one"))
        // In flight while the reload happens: some reach the old instance, the rest the new.
        p.board.feed(Array(100..<5000))
        let report = try p.reload(Self.pipeline(sink: "two"))
        #expect(report.restarted == ["out"] && report.failed.isEmpty, "\(report)")
        #expect(p.board.wait { $0.values(of: "out/one").count + $0.values(of: "out/two").count >= 5000 })
        #expect(p.feed(Array(5000..<6000), reaching: "out/two"))
        let result = p.stop()
        #expect(result.state == .finished)
        let all = p.board.values(of: "out/one") + p.board.values(of: "out/two")
        #expect(
            all == Array(0..<6000),
            "\(all.count) values, first out of place at \(all.indices.first { all[$0] != $0 } ?? -1)")
        let log = p.board.log
        let finishedOld = try #require(log.firstIndex(of: "finish out/one"))
        let startedNew = try #require(log.firstIndex(of: "start out/two"))
        #expect(finishedOld < startedNew, "the old instance ends before the new one starts: \(log)")
        let out = try #require(result.stages.first { $0.name == "out" })
        #expect(out.samplesIn == 6000 && result.stages.filter { $0.name == "out" }.count == 1, "\(result.stages)")
    }

    @Test func aChangedSourceStopsAndStartsWhileItsReadersKeepRunning() throws {
        let p = try Running("reload-source", Self.pipeline())
        #expect(p.feed(Array(0..<1000), reaching: "out/one"))
        let report = try p.reload(Self.pipeline(source: "b"))
        #expect(report.restarted == ["src"], "\(report)")
        #expect(p.feed(Array(1000..<2000), reaching: "out/one"))
        #expect(p.run.lifecycleState == .running)
        #expect(p.stop().state == .finished)
        let seen = p.board.values(of: "out/one")
        #expect(
            seen == Array(0..<2000),
            "\(seen.count) values, first out of place at \(seen.indices.first { seen[$0] != $0 } ?? -1)")
        let log = p.board.log
        #expect(log.firstIndex(of: "stop src a")! < log.firstIndex(of: "start src b")!, "\(log)")
        #expect(log.filter { $0.hasPrefix("finish out") } == ["finish out/one"], "the sink ran on: \(log)")
        #expect(log.last == "finish out/one")
    }

    @Test func componentsAreAddedRemovedAndRewired() throws {
        let p = try Running("reload-graph", Self.pipeline())
        #expect(p.feed([1, 2], reaching: "out/one"))
        let added = try p.reload(
            """
            sources:
              src: {type: feed, tag: a}
              more: {type: feed, tag: m}
            transforms:
              plus: {type: later, add: 100, inputs: [more]}
            sinks:
              out: {type: board, tag: one, inputs: [src, plus]}
              extra: {type: board, tag: x, inputs: [src]}
            """)
        #expect(
            added.added == ["more", "plus", "extra"] && added.rewired == ["out"] && added.restarted.isEmpty, "\(added)")
        #expect(p.feed([3], reaching: "extra/x"))
        #expect(p.feed([4], to: "more", reaching: "out/one"))
        let removed = try p.reload(Self.pipeline())
        #expect(removed.removed == ["more", "plus", "extra"] && removed.rewired == ["out"], "\(removed)")
        #expect(p.board.log.contains("finish extra/x"))
        #expect(p.feed([5], reaching: "out/one"))
        let result = p.stop()
        #expect(result.state == .finished)
        #expect(p.board.values(of: "out/one") == [1, 2, 3, 104, 5])
        #expect(p.board.values(of: "extra/x") == [3])
        // A removed component keeps its row, so its counts stay in the summary and manifest.
        #expect(result.stages.map(\.name) == ["src", "out", "more", "plus", "extra"], "\(result.stages.map(\.name))")
        #expect(result.stages.first { $0.name == "extra" }?.samplesIn == 1)
    }

    @Test func aTransformThatFinishesLaterDrainsItsWorkBeforeTheNewOneStarts() throws {
        func body(_ add: Int) -> String {
            """
            sources:
              src: {type: feed, tag: a}
            transforms:
              plus: {type: later, add: \(add), inputs: [src]}
            sinks:
              out: {type: board, tag: one, inputs: [plus]}
            """
        }
        let p = try Running("reload-deferred", body(100_000))
        p.board.feed(Array(0..<3000))
        let report = try p.reload(body(200_000))
        #expect(report.restarted == ["plus"], "\(report)")
        p.board.feed(Array(3000..<3100))
        #expect(p.board.wait { $0.values(of: "out/one").count >= 3100 })
        #expect(p.stop().state == .finished)
        let seen = p.board.values(of: "out/one")
        // Every value once, all of the old instance's before the new one's: its work was
        // drained, not dropped, and the two never ran at once.
        let old = seen.prefix { $0 < 200_000 }
        let new = seen.dropFirst(old.count)
        #expect(old.map { $0 - 100_000 } == Array(0..<old.count), "old instance: \(old.count) values")
        let inputs = Set(seen.map { $0 % 100_000 })
        #expect(
            new.map { $0 - 200_000 } == Array(old.count..<3100),
            "old \(old.count) values to \(old.last ?? -1), new \(new.count) from \(new.first ?? -1); missing \(Set(0..<3100).subtracting(inputs).sorted().prefix(10))"
        )
    }
}

extension ReloadEngineTests {
    @Test func replacingEveryComponentKeepsTheRunGoing() throws {
        func body(_ tag: String, _ add: Int) -> String {
            """
            sources:
              src: {type: feed, tag: \(tag)}
            transforms:
              plus: {type: later, add: \(add), inputs: [src]}
            sinks:
              out: {type: board, tag: \(tag), inputs: [plus]}
            """
        }
        let p = try Running("reload-all", body("a", 0))
        #expect(p.feed([1, 2, 3], reaching: "out/a"))
        let report = try p.reload(body("b", 10))
        #expect(report.restarted == ["src", "plus", "out"], "\(report)")
        #expect(p.run.lifecycleState == .running)
        #expect(p.feed([4], reaching: "out/b"))
        #expect(p.stop().state == .finished)
        #expect(p.board.values(of: "out/a") == [1, 2, 3] && p.board.values(of: "out/b") == [14])
    }

    @Test func whatOnlyANewRunCanChangeIsRefusedAndTheRunGoesOnAsItWas() throws {
        let p = try Running("reload-refused", Self.pipeline())
        #expect(throws: ReloadRefusal.self) {
            try p.run.reload(
                PipelineLoader(registry: Self.registry, environment: [:]).load(
                    text: "name: reload-refused\nclock: realtime\n" + Self.pipeline(sink: "two"), file: "x.yaml"))
        }
        // A plugin that cannot be built refuses the whole file, before anything changed.
        #expect(throws: PipelineStartError.self) {
            try p.reload(Self.pipeline(source: "b", sink: "broken"))
        }
        #expect(p.feed([7], reaching: "out/one"))
        #expect(p.stop().state == .finished)
        #expect(p.board.log == ["start out/one", "start src a", "stop src a", "finish out/one"], "\(p.board.log)")
    }

    @Test func aNewInstanceThatCannotStartFailsTheRunAfterTheOldOneDelivered() throws {
        let p = try Running("reload-fails", Self.pipeline())
        #expect(p.feed(Array(0..<500), reaching: "out/one"))
        let report = try p.reload(
            """
            sources:
              src: {type: feed, tag: a}
            sinks:
              out: {type: board, tag: two, fail_start: true, inputs: [src]}
            """)
        #expect(report.failed.count == 1 && report.failed[0].contains("cannot open the device"), "\(report)")
        let result = p.run.wait()
        #expect(result.state == .failed)
        #expect(result.failure?.contains("out") == true, "\(result.failure ?? "")")
        #expect(p.board.values(of: "out/one") == Array(0..<500))
    }

    @Test func aPausedRunReloadsAndResumesWithTheNewSource() throws {
        let p = try Running("reload-paused", Self.pipeline())
        #expect(p.feed([1], reaching: "out/one"))
        p.run.pause()
        let report = try p.reload(Self.pipeline(source: "b"))
        #expect(report.restarted == ["src"])
        p.board.feed([2])
        p.run.resume()
        #expect(p.board.wait { $0.values(of: "out/one") == [1, 2] })
        #expect(p.stop().state == .finished)
    }

    @Test func aTapOnARestartedComponentKeepsSeeingIt() throws {
        let p = try Running("reload-tap", Self.pipeline())
        let tapped = Mutex<[Int]>([])
        p.run.observe(component: "out") { batch in
            guard let v = batch.column("v") else { return }
            let values = (0..<batch.count).filter { batch.kinds[$0] == .data }.compactMap {
                v[$0].intValue.map(Int.init)
            }
            tapped.withLock { $0 += values }
        }
        #expect(p.feed([1], reaching: "out/one"))
        _ = try p.reload(Self.pipeline(sink: "two"))
        #expect(p.feed([2], reaching: "out/two"))
        #expect(p.stop().state == .finished)
        #expect(tapped.withLock { $0 } == [1, 2])
    }
}
