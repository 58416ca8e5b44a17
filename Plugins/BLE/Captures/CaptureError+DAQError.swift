import DAQCore

extension CaptureError: DAQErrorConvertible {
    /// Bad input at the capture's byte, when the reader got that far; the message is the text
    /// `daq` has always printed.
    public var daqError: DAQError {
        DAQError(
            .badInput, description,
            location: offset.map { DAQError.Location(file: path, byteOffset: Int64($0)) }
                ?? DAQError.Location(file: path))
    }
}
