import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Debian's `chromium`, headless, driven through the DevTools protocol on a pipe
/// (`--remote-debugging-pipe`: JSON messages separated by NUL on descriptors 3 and 4).
///
/// `--dump-dom` and `--screenshot` take the page as soon as it has loaded, before an event
/// stream has delivered anything; the protocol lets a test wait for what it expects, with a
/// deadline, click a button, and read every exception and console error the page met.
final class HeadlessBrowser: @unchecked Sendable {
    // @unchecked: the pid and the descriptors are set in `init` and not changed after; the
    // answers and events sit behind `condition`.
    private let pid: pid_t
    private let toBrowser: Int32
    private let fromBrowser: Int32
    private let condition = NSCondition()
    private var answers: [Int: [String: Any]] = [:]
    private var events: [[String: Any]] = []
    private var closed = false
    private var nextID = 0
    private var session = ""
    private let profile: String

    /// The program, or `nil` when it is not installed (`scripts/test.sh` installs it).
    static var program: String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts the browser with one page of `width`×`height` CSS pixels.
    init(width: Int = 1280, height: Int = 900) throws {
        let program = try #require(Self.program, "chromium is not installed: apt-get install -y chromium")
        profile =
            FileManager.default.temporaryDirectory.appendingPathComponent("daq-chromium-\(UUID().uuidString)").path
        var down: [Int32] = [0, 0]
        var up: [Int32] = [0, 0]
        guard pipe(&down) == 0, pipe(&up) == 0 else { throw BrowserError("pipe: \(errno)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, down[0], 3)
        posix_spawn_file_actions_adddup2(&actions, up[1], 4)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let arguments = [
            program, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--remote-debugging-pipe",
            "--user-data-dir=\(profile)", "--window-size=\(width),\(height)", "about:blank",
        ]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, program, &actions, nil, &argv, environ)
        close(down[0])
        close(up[1])
        guard spawned == 0 else { throw BrowserError("posix_spawn \(program): \(spawned)") }
        pid = child
        toBrowser = down[1]
        fromBrowser = up[0]
        let reader = Thread { [self] in readMessages() }
        reader.start()
        let target = try call("Target.createTarget", ["url": "about:blank"], inSession: false)
        let targetID = try #require(target["targetId"] as? String)
        let attached = try call("Target.attachToTarget", ["targetId": targetID, "flatten": true], inSession: false)
        session = try #require(attached["sessionId"] as? String)
        _ = try call("Runtime.enable")
        _ = try call("Log.enable")
        _ = try call("Page.enable")
        _ = try call(
            "Emulation.setDeviceMetricsOverride",
            ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": false])
    }

    deinit {
        close(toBrowser)
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        close(fromBrowser)
        try? FileManager.default.removeItem(atPath: profile)
    }

    /// Opens `url` in the page.
    func open(_ url: String) throws {
        _ = try call("Page.navigate", ["url": url])
    }

    /// Evaluates `expression` in the page; its value, as JSON gives it back.
    func evaluate(_ expression: String) throws -> Any? {
        let r = try call("Runtime.evaluate", ["expression": expression, "returnByValue": true])
        if let e = r["exceptionDetails"] { throw BrowserError("\(expression): \(e)") }
        return (r["result"] as? [String: Any])?["value"]
    }

    /// Evaluates `expression` until it is `true`, at most `timeout` seconds; whether it became so.
    func wait(timeout: Double = 30, until expression: String) throws -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        repeat {
            if try evaluate(expression) as? Bool == true { return true }
            // Bounded polling of the page's real state; the page updates four times a second.
            condition.lock()
            _ = condition.wait(until: min(deadline, Date(timeIntervalSinceNow: 0.1)))
            condition.unlock()
        } while Date() < deadline
        return false
    }

    /// A PNG of the page as shown.
    func screenshot() throws -> Data {
        let r = try call("Page.captureScreenshot", ["format": "png"])
        return try #require((r["data"] as? String).flatMap { Data(base64Encoded: $0) })
    }

    /// Every uncaught exception, console error and error log entry the page reported so far.
    var errors: [String] {
        condition.lock()
        defer { condition.unlock() }
        return events.compactMap { e -> String? in
            let p = e["params"] as? [String: Any] ?? [:]
            switch e["method"] as? String {
            case "Runtime.exceptionThrown": return "exception: \(p["exceptionDetails"] ?? "")"
            case "Runtime.consoleAPICalled" where p["type"] as? String == "error":
                return "console.error: \(p["args"] ?? "")"
            case "Log.entryAdded":
                let entry = p["entry"] as? [String: Any] ?? [:]
                return entry["level"] as? String == "error" ? "log: \(entry["text"] ?? "") \(entry["url"] ?? "")" : nil
            default: return nil
            }
        }
    }

    private func call(_ method: String, _ params: [String: Any] = [:], inSession: Bool = true) throws -> [String: Any] {
        condition.lock()
        nextID += 1
        let id = nextID
        condition.unlock()
        var message: [String: Any] = ["id": id, "method": method, "params": params]
        if inSession { message["sessionId"] = session }
        var bytes = try JSONSerialization.data(withJSONObject: message)
        bytes.append(0)
        let written = bytes.withUnsafeBytes { write(toBrowser, $0.baseAddress!, $0.count) }
        guard written == bytes.count else { throw BrowserError("writing \(method) to chromium failed") }
        let deadline = Date(timeIntervalSinceNow: 60)
        condition.lock()
        defer { condition.unlock() }
        while answers[id] == nil && !closed {
            if !condition.wait(until: deadline) { throw BrowserError("\(method): no answer from chromium in 60 s") }
        }
        guard let answer = answers.removeValue(forKey: id) else { throw BrowserError("chromium closed its pipe") }
        if let error = answer["error"] { throw BrowserError("\(method): \(error)") }
        return answer["result"] as? [String: Any] ?? [:]
    }

    private func readMessages() {
        var pending = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fromBrowser, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            pending.append(contentsOf: chunk[..<n])
            while let end = pending.firstIndex(of: 0) {
                let message = pending[pending.startIndex..<end]
                pending.removeSubrange(pending.startIndex...end)
                guard let json = try? JSONSerialization.jsonObject(with: message) as? [String: Any] else { continue }
                condition.lock()
                if let id = json["id"] as? Int { answers[id] = json } else { events.append(json) }
                condition.broadcast()
                condition.unlock()
            }
        }
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}

struct BrowserError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
