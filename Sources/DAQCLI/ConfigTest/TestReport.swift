import DAQCore

/// Prints results like a test runner: a line per case as it ends, then every failure with
/// its file:line, expected and actual, then `N passed, M failed`.
struct TestReport {
    private(set) var passed = 0
    private(set) var failed = 0
    private(set) var skipped = 0
    private(set) var hasInvalid = false
    private var failures: [(title: String, failures: [Failure])] = []

    mutating func record(_ path: String, _ c: TestCase, _ found: [Failure]) {
        let title = "\(path): \(c.name)"
        if found.isEmpty {
            passed += 1
            print("✔ \(title)")
        } else {
            failed += 1
            print("✘ \(title)")
            failures.append((title, found))
        }
    }

    /// A case that did not run, and why: its file needs what this machine does not give.
    mutating func skip(_ path: String, _ c: TestCase, reason: String) {
        skipped += 1
        print("- \(path): \(c.name) (skipped: \(reason))")
    }

    /// A test file that cannot be run, or a case whose overrides break the pipeline: its
    /// diagnostics go to standard error like `daq validate`'s.
    mutating func invalid(_ path: String, _ diagnostics: [Diagnostic], case c: TestCase? = nil) {
        hasInvalid = true
        print("✘ \(path)\(c.map { ": \($0.name)" } ?? ""): invalid")
        for d in diagnostics { printError(d.description) }
        if let c { printError("\(c.place): note: in case '\(c.name)'") }
    }

    func finish() {
        if !failures.isEmpty {
            print("\nFailures:")
            for (title, list) in failures {
                print("\n✘ \(title)")
                for f in list {
                    print("  \(f.place): \(Self.shortKey(f.key))")
                    print("    expected: \(f.expected)")
                    print("    actual:   \(f.actual)")
                }
            }
            print("")
        }
        print(
            "\(passed) passed, \(failed) failed" + (skipped > 0 ? ", \(skipped) skipped" : "")
                + (hasInvalid ? ", invalid test files (see above)" : ""))
    }

    /// `cases[2].expect.stats.count` reads `expect.stats.count` under the case's title.
    static func shortKey(_ key: String) -> String {
        guard key.hasPrefix("cases["), let close = key.firstIndex(of: "]") else { return key }
        return String(key[key.index(after: close)...].drop { $0 == "." })
    }
}
