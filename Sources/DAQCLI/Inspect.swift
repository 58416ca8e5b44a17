import ArgumentParser
import DAQCore
import DAQLSL
import DAQMotion
import DAQStorage
import Foundation

extension DAQCommand {
    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Describe a recording: device, clock, rate, gaps, repairs, axes, steps; optionally plot it.",
            discussion: """
                Reads any recording motion.replay reads, found by its content: CSV, JSON Lines, \
                SageResearch logs, device files (Axivity .cwa, ActiGraph .gt3x, GENEActiv .bin and \
                CSV, ActiLife CSV, phone-app CSVs), .gz too. For a device file it reports the device and serial, \
                the device clock's zone, the sample rate configured and measured, start and end \
                on the device clock, samples, corrupt blocks skipped, gaps the device left and \
                idle-sleep spans filled. Gaps are also intervals longer than twice the median \
                sample period. Step intervals come from the log's markers or stepPath, or from \
                FILE.steps.json beside a CSV. --plot writes an SVG of x, y, z and magnitude over \
                time with the steps shaded and gaps left open; a recording that spans days is \
                drawn one row per day of the device clock, midnight to midnight. A --plot file \
                ending in .png is rendered from the same SVG by rsvg-convert (librsvg2-bin).

                An epoch table (a CSV of motion.enmo or motion.mad epochs, with enmo_mg or mad_mg \
                and timestamp or timestampDate) is described by its epochs, non-wear and days, \
                and --plot draws the metric one row per day, midnight to midnight, with non-wear \
                (wear under 0.5) shaded. Rows are placed by timestampDate's own offset, else by \
                timestamp (seconds since 1970) on --time-zone's clock.

                An XDF file (.xdf, .xdf.gz) is described stream by stream: rate (nominal and \
                measured), samples, first and last time, clock offsets (count, mean), and whether \
                its footers are missing ('daq repair' adds them).

                A Parquet file, or a folder of parts a rolling parquet sink wrote, is described \
                from its footers alone: rows, row groups, time span, codec, and the schema with \
                units and null counts.

                Given a run directory (one with a manifest.json) it reports how the run ended, \
                and "interrupted" for a run that was killed: its manifest still says running \
                and no daq process holds it ('daq repair DIR' closes its files and marks it).
                """)

        @Argument(help: "The recording.", completion: .file())
        var recording: String

        @Option(help: "Write a plot of the recording to this file: SVG, or PNG when it ends in .png.")
        var plot: String?

        @Option(help: "Times unit when detection would guess wrong: s, ms, us, ns or datetime.")
        var timeUnit: String?

        @Option(help: "Zone whose days an epoch table's plot rows are, for times without an offset (default UTC).")
        var timeZone: String?

        func run() throws {
            if RunRecord.isRunDirectory(recording) { return try inspectRun(recording) }
            if XDFRepair.isXDF(recording) { return try inspectXDF(recording) }
            if ParquetInspection.isParquet(recording) { return try inspectParquet(recording) }
            if let metric = EpochTable.metric(inHeaderOf: recording) { return try inspectEpochs(metric: metric) }
            var config = "path: \(BatchPlan.quoted(recording))\non_bad_row: skip"
            if let timeUnit { config += "\ntime_unit: \(timeUnit)" }
            let report: RecordingReport
            do {
                report = try RecordingInspector(config: config, path: recording).inspect(
                    plotWidth: plot == nil ? 0 : 1200)
            } catch {
                printError("daq: \(PrintableText.line("\(error)"))")
                throw ExitStatus.runtimeFailure
            }
            // The report quotes the file (device, serial, its notes): escaped line by line.
            print(
                report.text.split(separator: "\n", omittingEmptySubsequences: false).map {
                    PrintableText.line(String($0))
                }.joined(separator: "\n"))
            if let plot { try Self.write(report.svg(), to: plot) }
        }

        /// Describes an epoch table and plots it one row per day.
        private func inspectEpochs(metric: String) throws {
            guard let zone = ISODate.zone(timeZone ?? "UTC") else {
                throw ValidationError(
                    "--time-zone: unknown zone '\(timeZone ?? "")' (an IANA name such as Europe/London, or ±hh:mm)")
            }
            let table: EpochTable
            do {
                table = try EpochTable(path: recording, metric: metric, zone: zone)
            } catch {
                printError("daq: \(PrintableText.line("\(error)"))")
                throw ExitStatus.runtimeFailure
            }
            print(table.text)
            guard let plot else { return }
            try Self.write(table.svg(), to: plot)
        }

        private static func write(_ svg: String, to plot: String) throws {
            do {
                try PlotFile.write(svg, to: plot)
                print("plot: \(plot)")
            } catch {
                printError("daq: \(error)")
                throw ExitStatus.runtimeFailure
            }
        }
    }
}
