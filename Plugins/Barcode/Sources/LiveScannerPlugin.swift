import DAQCore

/// A source plugin that is a thin shell around a ``LiveScanner``.
protocol LiveScannerPlugin: SourcePlugin {
    var scanner: LiveScanner { get }
}

extension LiveScannerPlugin {
    public func start(context: StageContext) throws { try scanner.start(context: context) }

    public func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus {
        try scanner.read(into: &batch, limit: limit, context: context)
    }

    public func cutShort(into batch: inout Batch, at uptime: Double, context: StageContext) throws {
        scanner.cutShort(into: &batch, at: uptime, context: context)
    }

    public func stop(context: StageContext) { scanner.stop(context: context) }
}
