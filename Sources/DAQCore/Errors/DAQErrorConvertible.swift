/// An error type that knows more than its text — a code, a file and line or byte offset — and
/// says so, so the engine reports it as a ``DAQError`` carrying that.
///
/// Keep ``daqError``'s message the same as the error's description: it is what `daq` prints.
public protocol DAQErrorConvertible: Error {
    /// This error as a ``DAQError``; the engine fills in the component.
    var daqError: DAQError { get }
}

extension DAQError {
    /// `error` as a ``DAQError`` about `component`: a ``DAQError`` as it is, a
    /// ``DAQErrorConvertible`` as it converts, any other error under `code` with its text as the
    /// message, so what people read does not change.
    /// - Parameters:
    ///   - error: what a stage or plugin threw.
    ///   - component: the component it concerns, when the error does not name one already.
    ///   - code: the code for an error that has none of its own.
    public init(_ error: any Error, component: String?, code: Code = .pluginFailed) {
        switch error {
        case let known as DAQError: self = known
        case let convertible as any DAQErrorConvertible:
            self = convertible.daqError
            underlying = underlying ?? error
        default: self.init(code, "\(error)", underlying: error)
        }
        self.component = self.component ?? component
    }

    /// This error with `prefix` before its message (`reload: `), as the engine says what it was doing.
    func prefixed(_ prefix: String) -> DAQError {
        var e = self
        e.message = prefix + message
        return e
    }
}
