import DAQCore
import DAQTesting
import Testing

/// `type: locked` — a source whose password sits in the variable `password_env` names.
private final class LockedSource: SourcePlugin {
    struct Configuration: PluginConfiguration {
        @Setting("the variable holding the password") var passwordEnv = ""
    }
    static let typeName = "locked"
    static let summary = "test source with a secret"
    init(configuration: Configuration, context: PluginContext) throws {}
    func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus { .finished }
}

/// Loading a pipeline marks what its `*_env` keys name as secrets, for `exec` to withhold.
@Suite struct SecretVariablesTests {
    @Test func aLoadedPipelinesEnvKeysNameSecrets() throws {
        let name = "DAQ_SECRET_TEST_LOADED"
        #expect(!SecretVariables.all.contains(name))
        let registry = try PluginRegistry([.source(LockedSource.self), .collect])
        _ = try PipelineLoader(registry: registry).load(
            text: """
                sources:
                  door: {type: locked, password_env: \(name)}
                sinks:
                  out: {type: collect, inputs: [door]}
                """, file: "secret.yaml")
        #expect(SecretVariables.all.contains(name))
    }
}
