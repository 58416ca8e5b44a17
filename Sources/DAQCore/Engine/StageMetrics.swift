import Metrics

/// One stage's swift-metrics instruments, made once when the pipeline is built.
///
/// The engine reports through swift-metrics so any backend an application bootstraps (the
/// Prometheus endpoint of `daq run`, StatsD, OpenTelemetry) sees every pipeline; without a
/// bootstrap they are swift-metrics' no-op handlers. Every update is per batch, never per
/// sample: one handler call next to the ``StageStatistics`` update it mirrors.
///
/// Dimensions: `pipeline`, `component`, `kind` (source, transform, sink) and `type` (the plugin).
struct StageMetrics: Sendable {
    let samplesIn: Counter
    let samplesOut: Counter
    let dropped: Counter
    let errors: Counter
    /// Sinks only; the other kinds never touch them.
    let sent: Counter
    let delivered: Counter
    let failed: Counter
    let bytes: Counter
    /// Samples in the input buffer, and its capacity; for sources both stay unreported.
    let buffered: Gauge
    let bufferCapacity: Gauge

    init(pipeline: String, component: String, kind: PluginKind, type: String) {
        let dimensions = [("pipeline", pipeline), ("component", component), ("kind", kind.rawValue), ("type", type)]
        samplesIn = Counter(label: "daq_stage_samples_in_total", dimensions: dimensions)
        samplesOut = Counter(label: "daq_stage_samples_out_total", dimensions: dimensions)
        dropped = Counter(label: "daq_stage_dropped_total", dimensions: dimensions)
        errors = Counter(label: "daq_stage_errors_total", dimensions: dimensions)
        sent = Counter(label: "daq_sink_sent_total", dimensions: dimensions)
        delivered = Counter(label: "daq_sink_delivered_total", dimensions: dimensions)
        failed = Counter(label: "daq_sink_failed_total", dimensions: dimensions)
        bytes = Counter(label: "daq_sink_bytes_total", dimensions: dimensions)
        buffered = Gauge(label: "daq_stage_buffer_samples", dimensions: dimensions)
        bufferCapacity = Gauge(label: "daq_stage_buffer_capacity", dimensions: dimensions)
    }
}
