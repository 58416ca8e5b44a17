import DAQCore

extension BadRow: DAQErrorConvertible {
    /// Bad input at the row's line; the message is the text `daq` has always printed.
    var daqError: DAQError {
        DAQError(.badInput, description, location: DAQError.Location(file: path, line: line))
    }
}
