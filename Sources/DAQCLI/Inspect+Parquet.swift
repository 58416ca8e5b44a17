import ArgumentParser
import DAQCore
import DAQStorage

extension DAQCommand.Inspect {
    /// Describes a Parquet file, or a folder of parts, from their footers (``ParquetInspection``).
    func inspectParquet(_ path: String) throws {
        do {
            // Names and units come from the file: escaped line by line like every report.
            print(
                try ParquetInspection.report(path).split(separator: "\n", omittingEmptySubsequences: false).map {
                    PrintableText.line(String($0))
                }.joined(separator: "\n"))
        } catch {
            printError("daq: \(PrintableText.line("\(error)"))")
            throw ExitStatus.runtimeFailure
        }
    }
}
