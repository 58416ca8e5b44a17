import DAQInfoManager
import Testing

@Suite(.timeLimit(.minutes(20))) struct LanguagePriorityTests {
    @Test(arguments: [
        (["de", "en"], ["en", "de"], 1),  // the client's order wins over the file's
        (["EN-gb"], ["de", "en-GB"], 1),  // case does not matter
        (["en-GB"], ["de", "en"], 1),  // a region falls back to its language
        (["en"], ["de", "en-US"], 1),  // a language takes a regional variant
        (["fr", "de"], ["en", "de"], 1),  // the next listed language when the first is missing
        (["fr"], ["en", "de"], 0),  // none listed: the element's first language
        ([], ["de", "en"], 0),
    ])
    func choosesTheFirstListedLanguageTheServiceHas(requested: [String], available: [String], expected: Int) {
        #expect(LanguagePriority.choose(requested, from: available) == expected)
    }

    @Test func nothingToChooseFrom() {
        #expect(LanguagePriority.choose(["en"], from: []) == nil)
    }

    @Test func parsesTheQueryValue() {
        #expect(LanguagePriority.parse("en-GB, de;q=0.8,,*") == ["en-GB", "de"])
        #expect(LanguagePriority.parse(nil) == [])
    }
}
