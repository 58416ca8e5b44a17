import Yams

extension Validation {
    /// `metrics: {prometheus: {listen: HOST:PORT}}`; every mistake at its line and column.
    mutating func validateMetrics(_ pair: (key: Node, value: Node)?) -> MetricsSpec? {
        guard let pair, !pair.value.isNullScalar else { return nil }
        guard let pairs = pair.value.pairs else {
            error(
                pair.value, "metrics",
                "expected a mapping such as {prometheus: {listen: 127.0.0.1:9598}}, found \(pair.value.kindName)")
            return nil
        }
        var spec: MetricsSpec?
        for (key, value) in pairs {
            let name = key.string ?? "?"
            guard name == "prometheus" else {
                let guess = DidYouMean.best(name, in: ["prometheus"]).map { " (did you mean '\($0)'?)" } ?? ""
                error(key, "metrics.\(name)", "unknown key '\(name)'\(guess); expected prometheus")
                continue
            }
            guard let inner = value.pairs else {
                error(value, "metrics.prometheus", "expected a mapping {listen: HOST:PORT}, found \(value.kindName)")
                continue
            }
            for (k, _) in inner where k.string != "listen" {
                let n = k.string ?? "?"
                let guess = DidYouMean.best(n, in: ["listen"]).map { " (did you mean '\($0)'?)" } ?? ""
                error(k, "metrics.prometheus.\(n)", "unknown key '\(n)'\(guess); expected listen")
            }
            guard let listen = value.pair("listen") else {
                error(value, "metrics.prometheus", "missing required key 'listen' (HOST:PORT, e.g. 127.0.0.1:9598)")
                continue
            }
            guard let text = listen.value.scalar?.string, let (host, port) = Self.hostPort(text) else {
                error(
                    listen.value, "metrics.prometheus.listen",
                    "expected HOST:PORT such as 127.0.0.1:9598 (port 0 takes a free one), found \(describe(listen.value))"
                )
                continue
            }
            spec = MetricsSpec(prometheusHost: host, prometheusPort: port)
        }
        return spec
    }

    /// `127.0.0.1:9598`, `[::1]:9598`, `localhost:0`.
    static func hostPort(_ text: String) -> (String, Int)? {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        var host = String(text[..<colon])
        guard let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host.isEmpty ? nil : (host, port)
    }
}
