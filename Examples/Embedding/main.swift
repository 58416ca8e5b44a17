import DAQCore
import DAQStandard
import Logging
import ServiceLifecycle

let yaml = """
    name: embedded
    clock: virtual
    sources:
      gen: {type: generator, signal: counter, rate: 100, count: 1000}
    sinks:
      discard: {type: null, inputs: [gen]}
    """
let spec = try PipelineLoader(registry: PluginRegistry(StandardPlugins.all)).load(text: yaml, file: "embedded.yaml")
let run = try PipelineRun(spec: spec)
// Streams asked for before the start see everything from the first event on.
let events = run.events
let batches = try run.samples(of: "gen")
let seen = Task {
    var states: [String] = []
    for await case .state(nil, _, let to) in events { states.append(to.rawValue) }
    return states
}
let received = Task {
    var samples = 0
    for await batch in batches { samples += batch.count }
    return samples
}
// The run ends by itself after 1,000 samples, and then the group does too; SIGTERM or SIGINT
// would stop it gracefully first.
let service = ServiceGroupConfiguration.ServiceConfiguration(
    service: run, successTerminationBehavior: .gracefullyShutdownGroup)
let group = ServiceGroup(
    configuration: ServiceGroupConfiguration(
        services: [service], gracefulShutdownSignals: [.sigterm, .sigint], logger: Logger(label: "embed")))
try await group.run()
print("pipeline: \(await seen.value.joined(separator: " > "))")
print("gen: \(await received.value) samples received, \(batches.droppedSamples) dropped")
let result = await run.finished
print("ended \(result.state.rawValue); discard took \(result.stages.last?.samplesIn ?? 0) samples")
