/// DAQCore's own errors that know a place or a kind convert to ``DAQError`` carrying it; each
/// message is the error's description, so the text people read stays as it was.

extension ConfigError: DAQErrorConvertible {
    /// Placed at the first error's line and column.
    public var daqError: DAQError {
        let first = diagnostics.first { $0.severity == .error } ?? diagnostics.first
        return DAQError(
            .invalidConfiguration, description,
            location: first.map { DAQError.Location(file: $0.file, line: $0.line, column: $0.column) })
    }
}

extension ConfigIssue: DAQErrorConvertible, CustomStringConvertible {
    /// Its key path leads the message; the file is not known here, so it has no location.
    public var daqError: DAQError { DAQError(.invalidConfiguration, description) }

    /// `window.size: must be positive`: the key path relative to the component, then what is wrong.
    public var description: String { "\(path.joined(separator: ".")): \(message)" }
}

extension CompressedInputError: DAQErrorConvertible {
    /// Placed at the compressed byte where the damage was found.
    public var daqError: DAQError {
        DAQError(.badInput, description, location: DAQError.Location(file: path, byteOffset: gzip.offset))
    }
}

extension OutputFileError: DAQErrorConvertible {
    public var daqError: DAQError {
        DAQError(.fileFailed, description, location: DAQError.Location(file: path))
    }
}

extension PipelineStartError: DAQErrorConvertible {
    /// Its component is the stage's name; the run's failure line keeps the key path (`sinks.log`).
    public var daqError: DAQError {
        // The plugin's own code (a file that cannot be opened) says more than "could not start".
        var error = underlying.map { DAQError($0, component: stageName, code: .startFailed) }
        error?.message = message
        var result = error ?? DAQError(.startFailed, message, component: stageName)
        result.label = component
        return result
    }

    /// `log` of `sinks.log`.
    var stageName: String {
        for section in PluginKind.allCases.map({ $0.section + "." }) where component.hasPrefix(section) {
            return String(component.dropFirst(section.count))
        }
        return component
    }
}
