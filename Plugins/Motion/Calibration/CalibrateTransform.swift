import DAQCore

/// Auto-calibration against gravity (van Hees et al. 2014), as GGIR, actipy and the
/// `accelerometer` package do it: each axis corrected by `offset + gain × raw` (plus a
/// temperature term) fitted so that still stretches of the recording measure 1 g.
///
/// With `calibration: auto` the run makes a first pass over the recording (``TwoPassTransform``)
/// that only collects the still windows (one point per 10 s, so a week costs a few MB), fits,
/// and then streams the samples through the correction. The fit is reported as a notice and
/// recorded in the run manifest's `results`, where `calibration: {from: manifest.json}` finds it
/// again, which is how the replay and realtime clocks (which make no first pass) use it. A fit
/// that is not accepted is reported and the samples pass unchanged.
public final class CalibrateTransform: TransformPlugin, TwoPassTransform {
    public typealias Configuration = CalibrationConfiguration

    public static let typeName = "motion.calibrate"
    public static let summary =
        "Auto-calibration against gravity (van Hees 2014): per-axis offset and gain fitted on still 10 s windows, or given, or reused from a run's manifest."

    public static let output = StreamOutput(
        .input, note: "the input's fields, the axes corrected (as doubles, in g)")

    let settings: Configuration

    public func describe(input: StreamDescriptor, context: PluginContext) throws -> StreamDescriptor {
        input.setting([settings.x, settings.y, settings.z].map { FieldDescriptor($0, .double, unit: "g") })
    }

    private enum State {
        /// `auto`, before the first pass's fit has come.
        case awaitingFit
        /// The first pass's instance, collecting still windows.
        case surveying(StillWindows)
        /// A fit made or read: applied when accepted. `origin` says where it came from.
        case fitted(CalibrationFit, origin: String)
        /// Coefficients given in the configuration.
        case given(AxisCorrection)
        /// Samples pass unchanged.
        case off
    }

    private var state: State

    public init(configuration: Configuration, context: PluginContext) throws {
        settings = configuration
        switch configuration.calibration {
        case .off:
            state = .off
        case .given(let c):
            state = .given(c)
        case .from(let path):
            let file = context.resolve(path)
            state = .fitted(try CalibrationFit.load(path: file, component: context.componentName), origin: file)
        case .auto:
            // The validator refuses this already (ClockDependentConfiguration); a plugin built
            // without it, in a harness, is refused here.
            guard context.clock == .virtual else {
                throw DAQError(.invalidConfiguration, "calibration: " + Configuration.autoNeedsVirtual(context.clock))
            }
            state = .awaitingFit
        }
    }

    // MARK: The first pass

    public var needsFirstPass: Bool {
        if case .awaitingFit = state { return true }
        return false
    }

    public func beginFirstPass() {
        state = .surveying(StillWindows(length: settings.window.value, threshold: settings.stillSd / 1000))
    }

    public func firstPassResult() throws -> Fields {
        guard case .fitted(let fit, _) = state else {
            throw DAQError(.pluginFailed, "the first pass of \(Self.typeName) ended without a fit")
        }
        return fit.fields
    }

    public func takeFirstPass(_ result: Fields) throws {
        state = .fitted(try CalibrationFit(fields: result), origin: "")
    }

    // MARK: The run

    public func start(context: StageContext) throws {
        switch state {
        case .fitted(let fit, let origin):
            context.notice(Self.report(fit, origin: origin))
            context.recordResult(fit.fields)
        case .given(let c):
            let record = CalibrationFit(
                correction: c, errorBefore: nil, errorAfter: nil, stillWindows: 0, iterations: 0, accepted: true,
                reason: "given in the configuration")
            context.recordResult(record.fields)
        case .awaitingFit, .surveying, .off:
            break
        }
    }

    public func process(_ batch: inout Batch, context: StageContext) throws {
        switch state {
        case .surveying(var windows):
            state = .off  // `windows` the only owner of its points while it grows
            survey(batch, into: &windows)
            state = .surveying(windows)
            batch = Batch(stream: context.name)
        case .fitted(let fit, _) where fit.accepted:
            correct(&batch, by: fit.correction, context: context)
        case .given(let c):
            correct(&batch, by: c, context: context)
        case .fitted, .off:
            break
        case .awaitingFit:
            throw DAQError(
                .pluginFailed,
                "calibration: auto has no fit: the run made no first pass (it makes one only on the virtual clock)")
        }
    }

    public func finish(context: StageContext) throws -> Batch {
        if case .surveying(var windows) = state {
            windows.close()
            let fit = GravityFit.fit(
                windows.points, cube: settings.cube, limit: settings.maxError / 1000, minimum: settings.minWindows,
                temperature: !settings.temperature.isEmpty)
            state = .fitted(fit, origin: "")
        }
        return Batch(stream: context.name)
    }

    /// The notice a fit gives: where from, the windows, the error before and after, the verdict.
    static func report(_ fit: CalibrationFit, origin: String) -> String {
        func list(_ values: [Double], scale: Double) -> String {
            "[" + values.map { String(($0 * scale * 10_000).rounded() / 10_000) }.joined(separator: ", ") + "]"
        }
        func mg(_ v: Double?) -> String { v.map { GravityFit.roundedText($0) + " mg" } ?? "unknown" }
        let from = origin.isEmpty ? "fitted on \(fit.stillWindows) still windows" : "from \(origin)"
        let verdict =
            fit.accepted
            ? "accepted (\(fit.reason)): offset \(list(fit.correction.offset, scale: 1000)) mg, gain \(list(fit.correction.gain, scale: 1))"
            : "not accepted (\(fit.reason)): samples pass unchanged"
        return "calibration \(from): error \(mg(fit.errorBefore)) before, \(mg(fit.errorAfter)) after; \(verdict)"
    }
}
