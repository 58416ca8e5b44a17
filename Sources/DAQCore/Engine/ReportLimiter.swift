/// Keeps a flood of warnings and notices from growing memory, the log, `--events` or the
/// manifest: whoever can publish to a subscribed topic, or write to a child's stderr, can make
/// a message a millisecond.
///
/// Messages are counted per component, severity and *kind*: the message's shape, with numbers
/// and quoted text taken out, up to its first `": "` (`skipped a message on '…' is not samples`,
/// `stderr`). The first ``verbatim`` of each kind pass as they are; the rest are counted, and
/// said once at each power of ten (`… and 1,000 more like it so far: stderr`) and in a last
/// summary (`… and 99,980 more like it: stderr`). A component has at most ``kindsPerComponent``
/// kinds; messages of further shapes share one. So what is kept is bounded whatever comes.
///
/// # Thread safety
/// A value type: its owner keeps it behind its lock.
public struct ReportLimiter: Sendable {
    /// How serious a message is.
    public enum Severity: String, Sendable {
        case warning, notice
    }

    /// What becomes of one message.
    public enum Verdict: Equatable, Sendable {
        /// Passed on as it is.
        case pass
        /// Counted only.
        case count
        /// Counted, and passed on as this summary of the messages of its kind left out so far.
        case summary(String)
    }

    /// One kind that left messages out, as the last summary says it.
    public struct Summary: Equatable, Sendable {
        public var component: String
        public var severity: Severity
        public var message: String

        /// A summary of `component`'s messages of one kind.
        public init(component: String, severity: Severity, message: String) {
            self.component = component
            self.severity = severity
            self.message = message
        }
    }

    /// Messages of one kind passed on as they are.
    public static let verbatim = 20
    /// Kinds told apart per component and severity; the rest share one.
    public static let kindsPerComponent = 32
    /// The longest shape kept: the start of a message says what it is.
    static let shapeLength = 60

    private struct Key: Hashable {
        var component: String
        var severity: Severity
        var shape: String
    }

    /// Messages seen of each kind, in the order the kinds first came.
    private var seen: [Key: Int] = [:]
    private var order: [Key] = []
    private var kinds: [String: Int] = [:]

    /// A limiter that has seen nothing.
    public init() {}

    /// Counts one message of `component` and says what becomes of it.
    public mutating func admit(component: String, severity: Severity, message: String) -> Verdict {
        var key = Key(component: component, severity: severity, shape: Self.shape(of: message))
        if seen[key] == nil {
            let known = kinds[component + "\u{0}" + severity.rawValue, default: 0]
            if known >= Self.kindsPerComponent {
                // One more shape than a component may have: counted with every other such one.
                key.shape = "other messages"
                if seen[key] == nil { order.append(key) }
            } else {
                kinds[component + "\u{0}" + severity.rawValue] = known + 1
                order.append(key)
            }
        }
        let n = seen[key, default: 0] + 1
        seen[key] = n
        if n <= Self.verbatim && key.shape != "other messages" { return .pass }
        let left = key.shape == "other messages" ? n : n - Self.verbatim
        guard Self.isPowerOfTen(left) && left >= 10 else { return .count }
        return .summary("… and \(Self.grouped(left)) more like it so far: \(key.shape)")
    }

    /// The last word on every kind that left messages out, of one component or of all.
    public func summaries(of component: String? = nil) -> [Summary] {
        order.compactMap { key in
            guard component == nil || key.component == component, let n = seen[key] else { return nil }
            let left = key.shape == "other messages" ? n : n - Self.verbatim
            guard left > 0 else { return nil }
            return Summary(
                component: key.component, severity: key.severity,
                message: "… and \(Self.grouped(left)) more like it: \(key.shape)")
        }
    }

    /// A message's kind: numbers become `#`, quoted text `'…'`, and it ends at the first `": "`.
    static func shape(of message: String) -> String {
        var out = ""
        var quote: Character?
        var previous: Character = " "
        for c in message {
            if out.count >= shapeLength { break }
            if let q = quote {
                if c == q { quote = nil }
                continue
            }
            if c == ":" {
                previous = c
                continue
            }
            if previous == ":" {
                if c == " " { break }
                out.append(":")
            }
            if c.isNumber {
                if previous.isNumber == false { out.append("#") }
            } else if c == "'" || c == "\"", !previous.isLetter {
                // An opening quote (after a space or a bracket), not an apostrophe: the quoted text varies.
                quote = c
                out += "'…'"
            } else {
                out.append(c)
            }
            previous = c
        }
        return out
    }

    private static func isPowerOfTen(_ n: Int) -> Bool {
        var m = n
        while m >= 10 && m % 10 == 0 { m /= 10 }
        return m == 1
    }

    /// `99,980`: a count as people read it.
    static func grouped(_ n: Int) -> String {
        let digits = Array(String(n))
        var out = ""
        for (i, d) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(d)
        }
        return out
    }
}
