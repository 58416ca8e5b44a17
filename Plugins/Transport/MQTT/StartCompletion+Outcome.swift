import DAQCore

extension StartCompletion {
    /// Completes a client's start at its first connection outcome: failed with the reason the
    /// client gave up, if it did, else succeeded. The sink and the source both start so.
    static func settle(_ start: (StartCompletion, String?)?) {
        guard let (completion, fatal) = start else { return }
        if let fatal { completion.fail(TransportError(fatal)) } else { completion.succeed() }
    }
}
