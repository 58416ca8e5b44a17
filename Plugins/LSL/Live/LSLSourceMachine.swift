/// The `lsl` source's lifecycle: looking for the stream, opening it, reading it, and noticing
/// when it goes and comes back. One `mutating func` per input; each returns what the source
/// must do, so the machine holds every liblsl handle in the state that owns it and no flag
/// lives beside it.
struct LSLSourceMachine {
    /// The two continuous resolvers: the stream wanted, and every stream (only to say what
    /// was visible when the wanted one is not found).
    struct Resolvers {
        var wanted: OpaquePointer
        var everything: OpaquePointer?
    }

    /// Whether the resolver still sees the stream read.
    enum Presence {
        /// Seen; checked again at `check` (wall seconds since the run started).
        case seen(check: Double)
        /// Not seen since the warning; the next sample ends the gap.
        case gone
    }

    private enum State {
        case idle
        /// Looking; `deadline` only for the first time, at start.
        case resolving(Resolvers, deadline: Double?)
        /// The inlet is connecting and fetching its full info and clock offset; `ambiguous` says
        /// that more than one stream matched.
        case opening(Resolvers, LSLInlet, deadline: Double?, ambiguous: String?)
        case streaming(Resolvers, LSLInlet, Presence)
        case ended
    }

    /// A time without samples: the stream's timestamps either side, seconds since 1970.
    struct Gap: Equatable {
        var from: Double
        var to: Double
    }

    /// What the source must do after a poll.
    enum Action {
        case none
        /// The stream was not found in time: the message lists what was visible.
        case fail(String)
        /// The stream is open: declare its descriptor (again after a reconnection); warn when
        /// more than one stream matched.
        case declare(LSLStreamInfo, ambiguous: String?)
        /// The resolver no longer sees the stream.
        case gone(LSLStreamInfo)
        /// liblsl gave the inlet up: close it; the machine resolves anew.
        case lost(LSLInlet)
    }

    private var state = State.idle
    /// The last sample's timestamp, where a gap starts.
    private var lastTimestamp: Double?
    /// Gaps seen, for the manifest.
    private(set) var gaps: [Gap] = []
    /// How often the presence of a stream being read is checked, in seconds.
    static let presenceInterval = 0.5

    mutating func begin(wanted: OpaquePointer, everything: OpaquePointer, deadline: Double) {
        state = .resolving(Resolvers(wanted: wanted, everything: everything), deadline: deadline)
    }

    var isStreaming: Bool {
        if case .streaming = state { return true }
        return false
    }

    /// The inlet being read or opened.
    var inlet: LSLInlet? {
        switch state {
        case .opening(_, let inlet, _, _), .streaming(_, let inlet, _): return inlet
        default: return nil
        }
    }

    /// Polls liblsl for what the current state waits for. `now` is wall seconds since the run started.
    mutating func poll(api: LSLFunctions, now: Double, bufferSeconds: Int32) -> Action {
        switch state {
        case .idle, .ended:
            return .none
        case .resolving(let resolvers, let deadline):
            let found = Self.results(of: resolvers.wanted, api: api)
            guard let first = found.first else {
                guard let deadline, now >= deadline else { return .none }
                return .fail(Self.visible(resolvers.everything, api: api))
            }
            let ambiguous =
                found.count > 1
                ? "\(found.count) streams match; reading the first, \(LSLStreamInfo(first, api: api).summary)" : nil
            for other in found.dropFirst() { api.destroyStreamInfo(other) }
            guard let inlet = LSLInlet(api: api, resolvedInfo: first, bufferSeconds: bufferSeconds) else {
                return .none
            }
            state = .opening(resolvers, inlet, deadline: deadline, ambiguous: ambiguous)
            return poll(api: api, now: now, bufferSeconds: bufferSeconds)
        case .opening(let resolvers, let inlet, let deadline, let ambiguous):
            switch inlet.poll() {
            case .waiting:
                guard let deadline, now >= deadline else { return .none }
                return .fail("it was found, \(inlet.resolved.summary), but its info or clock offset did not come")
            case .lost:
                state = .resolving(resolvers, deadline: deadline)
                return .lost(inlet)
            case .ready:
                // Opened again after a loss (no deadline): its first samples end the gap.
                let presence = deadline == nil ? Presence.gone : .seen(check: now + Self.presenceInterval)
                state = .streaming(resolvers, inlet, presence)
                return .declare(inlet.info!, ambiguous: ambiguous)
            }
        case .streaming(let resolvers, let inlet, let presence):
            if inlet.poll() == .lost {
                state = .resolving(resolvers, deadline: nil)
                return .lost(inlet)
            }
            switch presence {
            case .seen(let check):
                guard now >= check else { return .none }
                let found = Self.results(of: resolvers.wanted, api: api)
                var seen = false
                for info in found {
                    let other = LSLStreamInfo(info, api: api)
                    // Without a source id, only the very outlet read counts as the stream.
                    let same =
                        inlet.resolved.sourceID.isEmpty
                        ? other.uid == inlet.resolved.uid : other.sourceID == inlet.resolved.sourceID
                    if same { seen = true }
                    api.destroyStreamInfo(info)
                }
                if seen {
                    state = .streaming(resolvers, inlet, .seen(check: now + Self.presenceInterval))
                    return .none
                }
                state = .streaming(resolvers, inlet, .gone)
                return .gone(inlet.info ?? inlet.resolved)
            case .gone:
                return .none
            }
        }
    }

    /// The inlet's pull said the stream is lost.
    mutating func inletLost() {
        if case .streaming(let resolvers, _, _) = state { state = .resolving(resolvers, deadline: nil) }
    }

    /// Samples from `first` to `last` were read at `now` (wall seconds since the run started):
    /// returns the gap they end, if the stream had gone. A stream whose samples come is there,
    /// whatever the resolver (which finds a returned outlet only on its next round) says: it
    /// is asked again only once samples stop coming.
    mutating func noteSamples(first: Double, last: Double, now: Double) -> Gap? {
        defer { lastTimestamp = last }
        guard case .streaming(let resolvers, let inlet, let presence) = state else { return nil }
        state = .streaming(resolvers, inlet, .seen(check: now + Self.presenceInterval))
        guard case .gone = presence, let lastTimestamp else { return nil }
        let gap = Gap(from: lastTimestamp, to: first)
        gaps.append(gap)
        return gap
    }

    /// Ends the machine, handing back every handle to destroy.
    mutating func end() -> (resolvers: [OpaquePointer], inlet: LSLInlet?) {
        defer { state = .ended }
        switch state {
        case .resolving(let r, _): return ([r.wanted] + (r.everything.map { [$0] } ?? []), nil)
        case .opening(let r, let inlet, _, _), .streaming(let r, let inlet, _):
            return ([r.wanted] + (r.everything.map { [$0] } ?? []), inlet)
        case .idle, .ended: return ([], nil)
        }
    }

    /// The resolver's current results; the caller destroys each.
    private static func results(of resolver: OpaquePointer, api: LSLFunctions) -> [OpaquePointer] {
        var buffer = [OpaquePointer?](repeating: nil, count: 16)
        let n = api.resolverResults(resolver, &buffer, UInt32(buffer.count))
        guard n > 0 else { return [] }
        return buffer[0..<Int(n)].compactMap { $0 }
    }

    /// What the everything-resolver sees, for the message of a stream not found.
    private static func visible(_ resolver: OpaquePointer?, api: LSLFunctions) -> String {
        guard let resolver else { return "no stream list" }
        let infos = results(of: resolver, api: api)
        defer { for i in infos { api.destroyStreamInfo(i) } }
        if infos.isEmpty { return "no LSL stream was visible at all (check the network and lsl_api.cfg)" }
        return "visible were " + infos.map { LSLStreamInfo($0, api: api).summary }.joined(separator: "; ")
    }
}
