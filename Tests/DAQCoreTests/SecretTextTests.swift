import DAQCore
import Testing

/// Messages show URLs and `*_env` values without the credentials that may be in them.
@Suite("secret text", .timeLimit(.minutes(20)))
struct SecretTextTests {
    @Test(arguments: [
        ("mqtt://ops:s3cr3t@broker:1883", "mqtt://…@broker:1883"),
        ("https://token@example.org/a?b=c", "https://…@example.org/a?b=c"),
        ("http://a:b@c:d@host/x@y", "http://…@host/x@y"),
        ("mqtt://broker:1883", "mqtt://broker:1883"),
        ("http://host/path@not-credentials", "http://host/path@not-credentials"),
        ("no scheme user:pw@host", "no scheme user:pw@host"),
    ])
    func aURLLosesItsUserInfo(_ url: String, _ shown: String) {
        #expect(SecretText.url(url) == shown)
    }

    @Test func variableNamesAreLettersDigitsAndUnderscores() {
        for name in ["MQTT_PASSWORD", "_x", "a1", "PATH"] { #expect(SecretText.isVariableName(name), "\(name)") }
        for text in ["", "1ABC", "hunter2!", "pass word", "pässword", "a-b", "x=y"] {
            #expect(!SecretText.isVariableName(text), "\(text)")
        }
    }
}
