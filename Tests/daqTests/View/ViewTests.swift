import DAQTesting
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `daq run --view` against a real headless Chromium and real sockets, on loopback only.
@Suite("live view", .serialized)
struct ViewTests {
    /// A minute of walking (the shipped recording, its header naming the unit, `g`) replayed at
    /// 1×, and its magnitude, written to a file; two steps, so the chart has intervals to shade.
    static let walk = """
        clock: replay
        speed: 1
        steps:
          - { path: outbound, at: 0 }
          - { path: return, at: 4 }
        sources:
          accel: { type: motion.replay, path: OUT/walk.csv, time_unit: s }
        transforms:
          magnitude: { type: motion.magnitude, inputs: [accel] }
        sinks:
          out: { type: file, inputs: [magnitude], path: OUT/out.csv }
        """

    @Test(.timeLimit(.minutes(5)))
    func thePageShowsTheGraphAndChartsAndItsPauseButtonPausesTheRun() throws {
        let view = try ViewRun(Self.walk)
        let browser = try HeadlessBrowser()
        try browser.open(view.url)
        // Every component in the graph, with its counters.
        #expect(try browser.wait(until: "document.querySelectorAll('#graph .node').length === 3"))
        let nodes = try browser.evaluate("[...document.querySelectorAll('#graph .node')].map(n => n.dataset.component)")
        #expect(nodes as? [String] == ["accel", "magnitude", "out"])
        #expect(try browser.evaluate("document.querySelectorAll('#graph .edge').length") as? Int == 2)
        // A chart per stream, its fields named with their units, with points drawn.
        let charted =
            "(s) => { const c = document.querySelector(`.chart[data-stream=\"${s}\"]`); return c && Number(c.dataset.points) > 20; }"
        #expect(try browser.wait(until: "(\(charted))('accel') && (\(charted))('magnitude')"))
        // The units come with the descriptors, which may follow a stream's first frames: waited for.
        let legend = { (stream: String) in
            "[...document.querySelectorAll('.chart[data-stream=\"\(stream)\"] .legend .field')].map(f => f.textContent)"
        }
        #expect(
            try browser.wait(until: "\(legend("accel")).join('|') === 'x (g)|y (g)|z (g)'"),
            "\((try? browser.evaluate(legend("accel"))) ?? "")")
        #expect(
            try browser.wait(until: "\(legend("magnitude")).includes('magnitude (g)')"),
            "\((try? browser.evaluate(legend("magnitude"))) ?? "")")
        #expect(try browser.evaluate("document.getElementById('state').textContent") as? String == "running")
        #expect(
            try browser.wait(
                until:
                    "document.getElementById('step').textContent === 'outbound' || document.getElementById('step').textContent === 'return'"
            ))

        // A screenshot shows the chart: many colours where its canvas is, not a blank box.
        let rect = try #require(
            try browser.evaluate(
                "document.querySelector('.chart[data-stream=\"accel\"] canvas').getBoundingClientRect().toJSON()")
                as? [String: Any])
        let png = try PNGImage(try browser.screenshot())
        let (x, y, w, h) = (
            (rect["x"] as? Double) ?? 0, (rect["y"] as? Double) ?? 0, (rect["width"] as? Double) ?? 0,
            (rect["height"] as? Double) ?? 0
        )
        #expect(w > 100 && h > 100, "\(rect)")
        let inChart = png.colours(x: Int(x) + 60, y: Int(y) + 10, width: Int(w) - 70, height: Int(h) - 30)
        #expect(inChart.count > 8, "the chart area has \(inChart.count) colours")
        if let keep = ProcessInfo.processInfo.environment["DAQ_VIEW_SCREENSHOT"] {
            try browser.screenshot().write(to: URL(fileURLWithPath: keep))
        }

        // Pause, pressed on the page, goes through the control socket: daq top sees it.
        _ = try browser.evaluate("document.getElementById('pause').click()")
        #expect(try view.waitForState("paused"), "\(view.run.stderr)")
        #expect(try browser.wait(until: "document.getElementById('state').textContent === 'paused'"))
        _ = try browser.evaluate("document.getElementById('resume').click()")
        #expect(try view.waitForState("running"), "\(view.run.stderr)")
        // Next step, then stop, both from the page.
        _ = try browser.evaluate(
            "document.getElementById('step-path').value = 'cool-down'; document.getElementById('step-path').dataset.edited = '1'; document.getElementById('next-step').click()"
        )
        #expect(
            try browser.wait(
                until:
                    "[...document.querySelectorAll('#log li')].some(li => li.textContent.includes('step cool-down: done'))"
            ))
        #expect(try browser.wait(until: "document.getElementById('step').textContent === 'cool-down'"))
        _ = try browser.evaluate("document.getElementById('stop').click()")
        #expect(view.run.finish(timeout: 60) == 0, "\(view.run.stderr)")

        #expect(try browser.evaluate("document.getElementById('errors').textContent") as? String == "")
        #expect(browser.errors.isEmpty, "\(browser.errors)")
    }

    /// On 0.0.0.0 the view takes a token, and refuses the page, the stream and the buttons
    /// without it; the test asks over loopback only.
    @Test(.timeLimit(.minutes(3)))
    func aViewOnEveryAddressRefusesRequestsWithoutItsToken() throws {
        let view = try ViewRun(Self.walk, view: "0.0.0.0:0")
        let token = try #require(view.url.split(separator: "=").last.map(String.init), "\(view.url)")
        #expect(
            view.url.hasPrefix("http://0.0.0.0:") && view.url.contains("/?token=") && token.count == 32, "\(view.url)")
        let button = ["X-DAQ-View": "1"]
        #expect(try LoopbackHTTP.request(port: view.port, "GET", "/").status == 401)
        #expect(try LoopbackHTTP.request(port: view.port, "GET", "/?token=wrong").status == 403)
        #expect(
            try LoopbackHTTP.request(port: view.port, "GET", "/", headers: ["Authorization": "Bearer wrong"]).status
                == 403)
        #expect(try LoopbackHTTP.head(port: view.port, "/events").hasPrefix("HTTP/1.1 401"))
        #expect(try LoopbackHTTP.head(port: view.port, "/events?token=\(token)x").hasPrefix("HTTP/1.1 403"))
        #expect(try LoopbackHTTP.request(port: view.port, "POST", "/control/pause", headers: button).status == 401)
        #expect(
            try LoopbackHTTP.request(port: view.port, "POST", "/control/pause?token=no", headers: button).status == 403)
        #expect(try LoopbackHTTP.request(port: view.port, "POST", "/control/stop", headers: button).status == 401)
        #expect(try view.state() == "running")
        // With the token: the page, the stream and the button.
        let page = try LoopbackHTTP.request(port: view.port, "GET", "/?token=\(token)")
        #expect(page.status == 200 && page.body.contains("<title>daq view</title>"))
        let stream = try LoopbackHTTP.head(port: view.port, "/events?token=\(token)")
        #expect(stream.hasPrefix("HTTP/1.1 200") && stream.contains("text/event-stream"), "\(stream)")
        #expect(try LoopbackHTTP.request(port: view.port, "POST", "/control/pause?token=\(token)").status == 403)
        let paused = try LoopbackHTTP.request(port: view.port, "POST", "/control/pause?token=\(token)", headers: button)
        #expect(paused.status == 200 && paused.body.contains("\"ok\":true"), "\(paused)")
        #expect(try view.waitForState("paused"))
        _ = try DAQBinary.run(["control", view.name, "stop"])
        #expect(view.run.finish(timeout: 60) == 0, "\(view.run.stderr)")
    }

    /// 5,000 samples at 1 kHz through a file sink, once without a view and once with a page
    /// that opened the event stream and never reads it: the same bytes, and no drops.
    @Test(.timeLimit(.minutes(3)))
    func aStalledPageLeavesTheOutputAndTheDropCountersAlone() throws {
        let pipeline = """
            clock: realtime
            sources:
              wave: { type: generator, signal: sine, rate: 1000, frequency: 3, count: 5000 }
            sinks:
              out: { type: file, inputs: [wave], path: OUT/out.csv, fields: [seq, value], metadata: false, markers: false }
              log: { type: logger.jsonl, inputs: [wave], directory: OUT }
            """
        let plain = try ViewRun(pipeline, view: nil)
        #expect(plain.run.finish(timeout: 120) == 0, "\(plain.run.stderr)")

        let viewed = try ViewRun(pipeline)
        let stalled = try LoopbackHTTP.connect(port: viewed.port, receiveBuffer: 4096)
        defer { close(stalled) }
        LoopbackHTTP.send(stalled, "GET", "/events")
        // The stalled page is registered, and the run goes on to its end without it reading.
        let deadline = Date(timeIntervalSinceNow: 30)
        var health = ""
        repeat {
            health = try LoopbackHTTP.request(port: viewed.port, "GET", "/health").body
        } while !health.contains("\"clients\":1") && Date() < deadline
        #expect(health.contains("\"clients\":1"), "\(health)")
        #expect(viewed.run.finish(timeout: 120) == 0, "\(viewed.run.stderr)")

        let a = try Data(contentsOf: URL(fileURLWithPath: plain.output))
        let b = try Data(contentsOf: URL(fileURLWithPath: viewed.output))
        #expect(a.count > 40_000 && a == b, "\(a.count) and \(b.count) bytes")
        for run in [plain, viewed] {
            let stages = try #require(try run.manifest()["stages"] as? [[String: Any]])
            #expect(stages.count == 3)
            #expect(stages.allSatisfy { $0["dropped"] as? Int == 0 && $0["failed"] as? Int == 0 }, "\(stages)")
            #expect(stages.first { $0["name"] as? String == "log" }?["in"] as? Int == 5000, "\(stages)")
        }
    }

    /// A generator on the virtual clock covers minutes of run time each second: the page draws
    /// its charts once a second with the stats, and its graph keeps its nodes, only their
    /// counters changing. The run is a replay at 50 times real time that ends by itself after 6 s
    /// on any machine, as a replay does, so its last frames come after its last stats.
    @Test(.timeLimit(.minutes(3)))
    func aRunFasterThanRealTimeIsChartedWithItsStatsAndKeepsItsGraph() throws {
        let view = try ViewRun(
            """
            clock: replay
            speed: 50
            sources:
              wave: { type: generator, signal: sine, rate: 1000, frequency: 2, count: 300000 }
            sinks:
              out: { type: null, inputs: [wave] }
            """)
        let browser = try HeadlessBrowser()
        try browser.open(view.url)
        #expect(try browser.wait(until: "document.querySelectorAll('#graph .node').length === 2"))
        _ = try browser.evaluate(
            "window.firstNode = document.querySelector('#graph .node[data-component=\"wave\"]'); window.firstCount = window.firstNode.textContent; true"
        )
        #expect(try browser.wait(until: "document.body.dataset.pace === 'fast'"), "\(view.run.stderr)")
        #expect(
            try browser.wait(
                until: "Number(document.querySelector('.chart[data-stream=\"wave\"]')?.dataset.points) > 0"))
        // The same element, its text moved on: updated in place, not drawn anew.
        #expect(
            try browser.wait(
                until:
                    "document.querySelector('#graph .node[data-component=\"wave\"]') === window.firstNode && window.firstNode.textContent !== window.firstCount"
            ))
        #expect(view.run.finish(timeout: 120) == 0, "\(view.run.stderr)")
        // The frames that came after the last stats are drawn too: the chart ends where the data does.
        #expect(try browser.wait(until: "document.getElementById('state').textContent === 'ended'"))
        #expect(
            try browser.wait(
                until: "Number(document.querySelector('.chart[data-stream=\"wave\"]').dataset.end) === view.latest"))
        #expect(try browser.evaluate("document.getElementById('errors').textContent") as? String == "")
        // Once the view has gone with its run, the page asks for the next one served there, as it
        // should; the browser logs each refused try, which is no error of the page.
        let errors = browser.errors.filter { !$0.contains("ERR_CONNECTION_REFUSED") }
        #expect(errors.isEmpty, "\(errors)")
    }

    /// A page left open follows the next run served at its address: the view's stop leaves the
    /// page asking again, and the next `--view` on that port shows in it without a reload.
    @Test(.timeLimit(.minutes(5)))
    func aPageLeftOpenFollowsTheNextRunAtItsAddress() throws {
        let first = try ViewRun(Self.walk)
        let browser = try HeadlessBrowser()
        try browser.open(first.url)
        // `?.`: until the page has loaded, the browser still shows about:blank, which has no element.
        let named = { (name: String) in "document.getElementById('pipeline')?.textContent === '\(name)'" }
        #expect(try browser.wait(until: named(first.name)))
        _ = try DAQBinary.run(["control", first.name, "stop"])
        #expect(first.run.finish(timeout: 60) == 0, "\(first.run.stderr)")
        #expect(
            try browser.wait(
                until: "document.getElementById('connection')?.textContent.includes('follows the next') === true"))
        let second = try ViewRun(Self.walk, view: "127.0.0.1:\(first.port)")
        #expect(try browser.wait(until: named(second.name)), "\(second.run.stderr)")
        #expect(try browser.wait(until: "document.querySelectorAll('#graph .node').length === 3"))
        #expect(try browser.wait(until: "document.getElementById('state')?.textContent === 'running'"))
        _ = try DAQBinary.run(["control", second.name, "stop"])
        #expect(second.run.finish(timeout: 60) == 0, "\(second.run.stderr)")
    }
}

/// `daq view RUN` attaches to a run that was started without a view, through its control socket.
@Suite("daq view")
struct ViewAttachTests {
    @Test(.timeLimit(.minutes(3)))
    func daqViewServesARunningPipelineAndEndsWithIt() throws {
        let run = try ViewRun(ViewTests.walk, view: nil)
        let view = try LiveProcess(["view", run.name, "--listen", "127.0.0.1:0"])
        let line = try #require(view.line { $0.contains("daq view: http://") }, "\(view.stderr)")
        let url = String(line[line.range(of: "daq view: ")!.upperBound...])
        let port = try #require(url.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) }, "\(url)")
        let page = try LoopbackHTTP.request(port: port, "GET", "/")
        #expect(page.status == 200 && page.body.contains("<title>daq view</title>"))
        // The stream starts with the run's stats: its name and every component.
        let stream = try LoopbackHTTP.head(port: port, "/events", bytes: 2048)
        #expect(stream.contains("event: stats") && stream.contains("\"pipeline\":\"\(run.name)\""), "\(stream)")
        #expect(["accel", "magnitude", "out"].allSatisfy { stream.contains("\"name\":\"\($0)\"") }, "\(stream)")
        let paused = try LoopbackHTTP.request(port: port, "POST", "/control/pause", headers: ["X-DAQ-View": "1"])
        #expect(paused.status == 200, "\(paused)")
        #expect(try run.waitForState("paused"))
        _ = try DAQBinary.run(["control", run.name, "stop"])
        #expect(run.run.finish(timeout: 60) == 0, "\(run.run.stderr)")
        #expect(view.finish(timeout: 60) == 0, "\(view.stderr)")
        #expect(view.stderr.contains("daq view: the run has ended"), "\(view.stderr)")
    }
}
