import ArgumentParser
import DAQCore
import DAQLSL

extension DAQCommand.Inspect {
    /// Describes an XDF file stream by stream (``XDFReport``).
    func inspectXDF(_ path: String) throws {
        do {
            let report = try XDFReport(path: path)
            print(
                report.text.split(separator: "\n", omittingEmptySubsequences: false).map {
                    PrintableText.line(String($0))
                }.joined(separator: "\n"))
        } catch {
            printError("daq: \(PrintableText.line("\(error)"))")
            throw ExitStatus.runtimeFailure
        }
    }
}
