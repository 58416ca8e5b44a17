import Yams

/// A registered plugin type: its metadata and how to decode its configuration and build it.
///
/// Descriptors erase the plugin's concrete types so the registry, the validator and
/// `daq plugins describe` treat every plugin alike.
public struct PluginDescriptor: Sendable {
    /// Source, transform or sink.
    public let kind: PluginKind
    /// The `type:` name.
    public let typeName: String
    /// One line that `daq plugins` prints.
    public let summary: String
    /// The configuration keys.
    public let configKeys: [ConfigKey]
    /// The module that provides it, shown by `daq plugins`.
    public let module: String
    /// Whether it changes the run's step (see ``PluginMetadata/changesSteps``).
    public var changesSteps = false
    /// What it emits (see ``PluginMetadata/output``).
    public var output = StreamOutput.undeclared

    let decode: @Sendable (Node) throws -> any PluginConfiguration
    let build: @Sendable (any PluginConfiguration, PluginContext) throws -> BuiltStage

    /// Describes a source type.
    public static func source<P: SourcePlugin>(_ type: P.Type, module: String = "custom") -> PluginDescriptor {
        PluginDescriptor(
            kind: .source, typeName: P.typeName, summary: P.summary, configKeys: P.configKeys, module: module,
            changesSteps: P.changesSteps, output: P.output,
            decode: { try decodePluginConfiguration(P.Configuration.self, from: $0) },
            build: { config, context in .source(try P(configuration: config as! P.Configuration, context: context)) })
    }

    /// Describes a transform type.
    public static func transform<P: TransformPlugin>(_ type: P.Type, module: String = "custom") -> PluginDescriptor {
        PluginDescriptor(
            kind: .transform, typeName: P.typeName, summary: P.summary, configKeys: P.configKeys, module: module,
            changesSteps: P.changesSteps, output: P.output,
            decode: { try decodePluginConfiguration(P.Configuration.self, from: $0) },
            build: { config, context in
                .transform(try P(configuration: config as! P.Configuration, context: context))
            })
    }

    /// Describes a sink type.
    public static func sink<P: SinkPlugin>(_ type: P.Type, module: String = "custom") -> PluginDescriptor {
        PluginDescriptor(
            kind: .sink, typeName: P.typeName, summary: P.summary, configKeys: P.configKeys, module: module,
            changesSteps: P.changesSteps, output: P.output,
            decode: { try decodePluginConfiguration(P.Configuration.self, from: $0) },
            build: { config, context in .sink(try P(configuration: config as! P.Configuration, context: context)) })
    }

    /// Decodes and validates a configuration node.
    /// - Throws: `DecodingError` or ``ConfigIssue``.
    public func decodeConfiguration(_ node: Node) throws -> any PluginConfiguration {
        try decode(node)
    }

    /// Builds a fresh instance.
    public func makeStage(_ configuration: any PluginConfiguration, context: PluginContext) throws -> BuiltStage {
        try build(configuration, context)
    }
}

/// A plugin instance, by kind.
public enum BuiltStage {
    case source(any Source)
    case transform(any Transform)
    case sink(any Sink)
}

private func decodePluginConfiguration<C: PluginConfiguration>(_ type: C.Type, from node: Node) throws -> C {
    let config = try YAMLDecoder().decode(C.self, from: node)
    try config.validate()
    return config
}
