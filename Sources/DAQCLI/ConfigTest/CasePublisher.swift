import DAQCore
import DAQSHA256
import Foundation
import Yams

/// Publishes a case's `publish:` samples to the broker an `mqtt` source subscribes to, the way
/// an edge `daq` does: a pipeline of its own, a `file` source reading the samples into an
/// `mqtt` sink with the source's connection keys, run until the broker has acknowledged all.
struct CasePublisher {
    let registry: PluginRegistry
    let pipeline: Node?
    let environment: [String: String]
    let publications: [String: CaseWorkspace.Publication]
    let feeds: [Feed]

    /// The source's keys that say how to reach the broker; `client_id` stays out, since a
    /// second client with the subscriber's id would push it off the broker.
    static let connectionKeys = ["url", "username", "password_env", "ca_file", "connect_timeout", "keep_alive"]

    /// Publishes every source's samples in turn; a failure for each that could not be.
    func publish() -> [Failure] {
        var failures: [Failure] = []
        for (source, publication) in publications.sorted(by: { $0.key < $1.key }) {
            let place = feeds.first { $0.component == source }?.place ?? Place(file: "", node: nil)
            func fail(_ actual: String) {
                failures.append(
                    Failure(
                        place: place, key: "input.\(source).publish",
                        expected: "\(publication.count) samples published on '\(publication.topic)'", actual: actual))
            }
            do {
                let spec = try PipelineLoader(registry: registry, environment: environment, contentHash: .sha256).load(
                    text: try text(source: source, publication), file: "daq test: publisher for '\(source)'")
                let run = try PipelineRun(spec: spec, options: RunOptions(flushInterval: 0, contentHash: .sha256))
                try run.start()
                let result = run.wait()
                let delivered = result.stages.first { $0.kind == .sink }?.delivered ?? 0
                if result.state != .finished || delivered != publication.count {
                    fail("\(delivered) acknowledged by the broker" + (result.failureLine.map { ": \($0)" } ?? ""))
                }
            } catch let error as ConfigError {
                fail(error.diagnostics.map(\.message).joined(separator: "; "))
            } catch {
                fail("\(error)")
            }
        }
        return failures
    }

    /// The publishing pipeline as YAML: the source's connection keys are copied as written, so
    /// `${MQTT_URL}` is substituted from the case's environment like the pipeline's own.
    private func text(source: String, _ publication: CaseWorkspace.Publication) throws -> String {
        let sourceNode = CaseWorkspace.child(CaseWorkspace.child(pipeline, "sources"), source)
        var sink: [(Node, Node)] = [
            (Node("type"), Node("mqtt")), (Node("inputs"), Node([Node("published")])),
            (Node("topic"), Node(publication.topic)), (Node("qos"), Node("1", Tag(.int))),
        ]
        for key in Self.connectionKeys {
            if let value = CaseWorkspace.child(sourceNode, key) { sink.append((Node(key), value)) }
        }
        let root = Node([
            (Node("name"), Node("daq-test-publisher")),
            (Node("clock"), Node("virtual")),
            (
                Node("sources"),
                Node([
                    (
                        Node("published"),
                        Node([
                            (Node("type"), Node("file")), (Node("path"), Node(publication.path)),
                            (Node("format"), Node("jsonl")),
                        ])
                    )
                ])
            ),
            (Node("sinks"), Node([(Node("publish"), Node(sink))])),
        ])
        return try Yams.serialize(node: root)
    }
}
