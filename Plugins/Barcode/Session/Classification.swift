import DAQCore

extension ScannedCode {
    /// Classifies bytes as a scanner sent them: the AIM identifier, when there is one, names the
    /// symbology and is stripped; otherwise length and check digit tell.
    init(raw: [UInt8]) {
        let id = SymbologyIdentifier.identify(raw)
        self.raw = raw
        text = String(decoding: id.data, as: UTF8.self)
        symbology = id.name
        aim = id.aim
    }
}
