import Foundation
import NIOHTTP1

/// What the view's HTTP handler makes of a request head: the route and the token it carries.
struct ViewRequest: Equatable {
    enum Route: Equatable {
        /// `GET /`: the page.
        case page
        /// `GET /events`: the event stream.
        case events
        /// `GET /health`: the view's own counters, as JSON.
        case health
        /// `POST /control/VERB`: a control-socket command (`step` takes `?path=`).
        case control(String)
        case notFound
        case methodNotAllowed
    }

    var route: Route
    /// `?token=` or `Authorization: Bearer`, whichever is given.
    var token: String?
    var host: String?
    /// Whether the request carries the `X-DAQ-View` header the page sets on its POSTs: a form
    /// on another site cannot set it without a CORS preflight the view never grants, so a
    /// page elsewhere cannot press the buttons of a loopback view.
    var fromPage: Bool
    /// The decoded query parameters.
    var query: [String: String]

    init(_ head: HTTPRequestHead) {
        let parts = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = parts.first.map(String.init) ?? "/"
        var query: [String: String] = [:]
        if parts.count > 1 {
            for pair in parts[1].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let key = Self.decode(kv[0])
                query[key] = kv.count > 1 ? Self.decode(kv[1]) : ""
            }
        }
        self.query = query
        var token = query["token"]
        if let auth = head.headers.first(name: "authorization"), auth.lowercased().hasPrefix("bearer ") {
            token = String(auth.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        }
        self.token = token
        host = head.headers.first(name: "host")
        fromPage = head.headers.first(name: "x-daq-view") != nil
        switch (head.method, path) {
        case (.GET, "/"), (.HEAD, "/"): route = .page
        case (.GET, "/events"): route = .events
        case (.GET, "/health"): route = .health
        case (.POST, let p) where p.hasPrefix("/control/"): route = .control(String(p.dropFirst(9)))
        case (_, "/"), (_, "/events"), (_, "/health"): route = .methodNotAllowed
        case (_, let p) where p.hasPrefix("/control/"): route = .methodNotAllowed
        default: route = .notFound
        }
    }

    /// Percent-decoding with `+` as a space, as forms write queries.
    static func decode(_ s: Substring) -> String {
        let plus = s.replacingOccurrences(of: "+", with: " ")
        return plus.removingPercentEncoding ?? plus
    }

    /// The control-socket line for a `POST /control/VERB`, or why there is none.
    static func controlCommand(_ verb: String, query: [String: String]) -> Result<String, ViewRefusal> {
        switch verb {
        case "pause", "resume", "stop": return .success(verb)
        case "step":
            guard let path = query["path"], !path.isEmpty, !path.contains("\n") else {
                return .failure(ViewRefusal("step needs ?path=STEP"))
            }
            return .success("step \(path)")
        default: return .failure(ViewRefusal("unknown command '\(verb)'; expected pause, resume, stop or step"))
        }
    }
}

/// Why a control request was refused, said to the page.
struct ViewRefusal: Error, Equatable {
    var message: String
    init(_ message: String) { self.message = message }
}
