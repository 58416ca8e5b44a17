import DAQCore
import DAQTesting
import Testing

/// A transform whose hand-written decoding reads `offset` and forgets `gain`.
private final class ForgetfulTransform: TransformPlugin {
    struct Configuration: PluginConfiguration {
        @Setting("Added to value.") var offset = 0.0
        @Setting("Multiplies value.") var gain = 1.0

        init() {}

        init(from decoder: any Decoder) throws {
            self.init()
            let c = try decoder.container(keyedBy: AnyKey.self)
            offset = try c.decodeIfPresent(Double.self, forKey: AnyKey("offset")) ?? offset
        }
    }
    static let typeName = "forgetful"
    static let summary = "test transform"
    init(configuration: Configuration, context: PluginContext) throws {}
    func process(_ batch: inout Batch, context: StageContext) throws {}
}

/// The same keys, decoded the ordinary way, one of them required and range-checked.
private final class CarefulTransform: TransformPlugin {
    struct Configuration: PluginConfiguration {
        @Setting(required: "Field to scale.") var field: String
        @Setting("Added to value.") var offset = 0.0
        @Setting("Multiplies value; not 0.") var gain = 1.0

        func validate() throws {
            if gain == 0 { throw $gain.issue("must not be 0") }
        }
    }
    static let typeName = "careful"
    static let summary = "test transform"
    init(configuration: Configuration, context: PluginContext) throws {}
    func process(_ batch: inout Batch, context: StageContext) throws {}
}

/// A required key that decoding treats as optional.
private final class LaxTransform: TransformPlugin {
    struct Configuration: PluginConfiguration {
        @Setting(required: "Field to scale.") var field: String

        init() {}

        init(from decoder: any Decoder) throws {
            self.init()
            let c = try decoder.container(keyedBy: AnyKey.self)
            field = try c.decodeIfPresent(String.self, forKey: AnyKey("field")) ?? "value"
        }
    }
    static let typeName = "lax"
    static let summary = "test transform"
    init(configuration: Configuration, context: PluginContext) throws {}
    func process(_ batch: inout Batch, context: StageContext) throws {}
}

@Suite("Key conformance: described and decoded keys agree", .timeLimit(.minutes(20)))
struct KeyConformanceTests {
    @Test func aDescribedKeyThatDecodingIgnoresIsFound() {
        let problems = KeyConformance.problems(.transform(ForgetfulTransform.self), baseline: "")
        #expect(problems.count == 1)
        #expect(problems.first?.contains("key 'gain' is described but decoding ignores it") == true)
    }

    @Test func declaredKeysAgree() {
        #expect(KeyConformance.problems(.transform(CarefulTransform.self), baseline: "field: v").isEmpty)
    }

    @Test func aRequiredKeyThatIsNotRequiredIsFound() {
        let problems = KeyConformance.problems(.transform(LaxTransform.self), baseline: "field: v")
        #expect(problems == ["transform lax: key 'field' is described as required but decodes without it"])
    }

    @Test func aBaselineThatDoesNotDecodeIsReported() {
        let problems = KeyConformance.problems(.transform(CarefulTransform.self), baseline: "gain: 2")
        #expect(problems.count == 1 && problems[0].hasPrefix("transform careful: the baseline does not decode"))
    }
}
