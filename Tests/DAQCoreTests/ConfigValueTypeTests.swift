import DAQCore
import Testing

@Suite("configuration key types", .timeLimit(.minutes(20)))
struct ConfigValueTypeTests {
    @Test(arguments: [
        ("string", "string"), ("text", "string"), ("int (bytes)", "int"), ("double (Hz)", "double"),
        ("seconds", "seconds"), ("[string]", "[string]"), ("block | drop_oldest", "block | drop_oldest"),
        ("0 | 1", "0 | 1"), ("string | null", "string or null"), ("[string] or text", "[string] or string"),
        ("{string: string}", "{key: string}"), ("{time, x, y, z}", "{time, x, y, z}"),
        ("[{code, step}]", "[{code, step}]"), ("[mean | min | max]", "[mean | min | max]"),
        ("[{company_id, fields: [{name, offset}]}]", "[{company_id, fields: [{name, offset}]}]"),
        ("{size: int, when_full: block | drop_newest}", "{size: int, when_full: block | drop_newest}"),
    ])
    func theGrammarReadsEveryShapeInUse(text: String, canonical: String) throws {
        let parsed = try #require(ConfigValueType(parsing: text))
        #expect(parsed.description == canonical)
    }

    @Test(arguments: ["", "number", "[string", "{a, }", "a b | c", "{: int}", "string or"])
    func textOutsideTheGrammarIsRefused(text: String) {
        #expect(ConfigValueType(parsing: text) == nil)
    }
}
