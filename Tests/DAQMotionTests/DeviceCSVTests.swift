import DAQCore
import DAQMotion
import DAQTesting
import Foundation
import Testing

/// CSV exports of device software and phone apps, typed from their documented layouts (no
/// independent reader exists for these): each is read with nothing but `path:` set.
@Suite(.timeLimit(.minutes(20))) struct DeviceCSVTests {
    /// A GENEActiv PC software export: 100 lines of preamble, rows without a header.
    static func geneactivCSV(rows: [String]) -> String {
        var preamble = [
            "Device Type,GENEActiv", "Device Model,1.1", "Device Unique Serial Code,012345",
            "Device Firmware Version,Ver06.17 15June2012", "Calibration Date,2012-06-19 17:05:12:000",
            "Application name & version,GENEActiv PC Software 3.2", ",", "Measurement Frequency,100 Hz",
            "Measurement Period,168 Hours", "Start Time,2013-04-03 15:00:00:000",
            "Last measurement,2013-04-10 14:59:59:990",
            "Device Location Code,left wrist", "Time Zone,GMT +01:00", ",", "Subject Code,P01",
            "Date of Birth,1980-01-01",
            "Sex,female", "Height,170", "Weight,60", "Handedness Code,right", ",", "x gain,25548", "x offset,574",
            "y gain,25556", "y offset,-436", "z gain,25406", "z offset,1168", "Volts,300", "Lux,800", ",",
            "Number of Pages,2016", "Accelerometer Units,g", "Light Meter Units,lux", "Temperature Sensor Units,deg. C",
        ]
        while preamble.count < 100 { preamble.append(",") }
        return (preamble + rows).joined(separator: "\n") + "\n"
    }

    @Test func geneactivCSVExport() throws {
        let text = Self.geneactivCSV(rows: [
            "2013-04-03 15:00:00:000,-0.0156,0.0625,-1.0039,12.5,0,23.4",
            "2013-04-03 15:00:00:010,-0.0195,0.0586,-1.0078,12.5,1,23.4",
            "2013-04-03 15:00:00:020,-0.0117,0.0664,-1.0000,15,0,23.5",
        ])
        let path = recording("export.csv", text)
        let (samples, events) = try replayAll(path)
        #expect(samples.map { $0.number("x") } == [-0.0156, -0.0195, -0.0117])
        #expect(samples.map { $0.number("z") } == [-1.0039, -1.0078, -1])
        #expect(samples.map { $0.number("light") } == [12.5, 12.5, 15])
        #expect(samples.map { $0.number("button") } == [0, 1, 0])
        #expect(samples.map { $0.number("temperature") } == [23.4, 23.4, 23.5])
        // 2013-04-03 15:00 at GMT +01:00 is 14:00 UTC.
        let utc = Double(LocalDays.from(2013, 4, 3) * 86_400 + 14 * 3600)
        #expect(samples.map(\.timestamp).enumerated().allSatisfy { close($1, utc + Double($0) / 100, 1e-6) })
        #expect(
            events.notices.first
                == "format geneactiv-csv, device GENEActiv 1.1 #012345, configured at 100 Hz, starting 2013-04-03T15:00:00.000+01:00 (device clock in +01:00), axes in g"
        )
    }

    @Test func geneactivCSVBadRowNamesItsLine() throws {
        let path = recording(
            "export.csv",
            Self.geneactivCSV(rows: ["2013-04-03 15:00:00:000,0,0,1,0,0,20", "2013-04-03 15:00:00:010,0,abc,1,0,0,20"]))
        let (samples, error) = replayUntilFailure(try replay(path))
        #expect(samples.count == 1)
        #expect("\(try #require(error))" == "\(path):102: y is not a number: 'abc'")
    }

    static let actilifePreamble = """
        ------------ Data File Created By ActiGraph GT3X+ ActiLife v6.13.3 Firmware v2.5.0 date format d/M/yyyy at 30 Hz  Filter Normal -----------
        Serial Number: NEO1F18120387
        Start Time 09:30:00
        Start Date 18/5/2015
        Epoch Period (hh:mm:ss) 00:00:00
        Download Time 11:42:20
        Download Date 22/5/2015
        Current Memory Address: 0
        Current Battery Voltage: 4.2     Mode = 12
        --------------------------------------------------

        """

    @Test func actilifeRawWithTimestamps() throws {
        let text =
            Self.actilifePreamble + """
                Timestamp,Accelerometer X,Accelerometer Y,Accelerometer Z
                18/5/2015 09:30:00.000,0.012,-0.023,0.996
                18/5/2015 09:30:00.033,0.015,-0.020,0.992
                18/5/2015 09:30:00.067,0.009,-0.026,1.002

                """
        let (samples, events) = try replayAll(recording("actilife.csv", text), "time_zone: Europe/Paris")
        #expect(samples.map { $0.number("y") } == [-0.023, -0.020, -0.026])
        // 09:30 in Paris in May (CEST) is 07:30 UTC.
        let utc = Double(LocalDays.from(2015, 5, 18) * 86_400 + 7 * 3600 + 1800)
        #expect(zip(samples.map(\.timestamp), [utc, utc + 0.033, utc + 0.067]).allSatisfy { close($0, $1, 1e-6) })
        #expect(
            events.notices.first
                == "format actilife-csv, device ActiGraph GT3X+ #NEO1F18120387, configured at 30 Hz, starting 2015-05-18T09:30:00.000+02:00 (device clock in Europe/Paris), axes in g, actilife v6.13.3"
        )
    }

    @Test func actilifeRawWithoutTimestampsCountsFromTheStart() throws {
        let text =
            Self.actilifePreamble
            + "Accelerometer X,Accelerometer Y,Accelerometer Z\n0.1,0.2,0.9\n0.2,0.3,1.0\n0.3,0.4,1.1\n"
        let (samples, events) = try replayAll(recording("actilife.csv", text))
        let start = Double(LocalDays.from(2015, 5, 18) * 86_400 + 9 * 3600 + 1800)
        #expect(
            zip(samples.map(\.timestamp), [start, start + 1.0 / 30, start + 2.0 / 30]).allSatisfy {
                close($0, $1, 1e-6)
            })
        #expect(samples.map { $0.number("x") } == [0.1, 0.2, 0.3])
        #expect(
            events.notices.contains(
                "ActiLife exports carry no time zone: times are read as UTC; set time_zone to say where the device was")
        )
    }

    @Test func actilifeEpochExportIsReadAsCounts() throws {
        let text =
            Self.actilifePreamble.replacingOccurrences(of: "(hh:mm:ss) 00:00:00", with: "(hh:mm:ss) 00:01:00") + """
                Date,Time,Axis1,Axis2,Axis3,Steps,Lux,Inclinometer Off,Inclinometer Standing,Inclinometer Sitting,Inclinometer Lying,Vector Magnitude
                18/5/2015,09:30:00,120,45,300,12,5,0,60,0,0,326.24
                18/5/2015,09:31:00,0,0,0,0,3,0,0,60,0,0

                """
        let (samples, events) = try replayAll(recording("epoch.csv", text))
        #expect(samples.map { $0.number("x") } == [120, 0])
        #expect(samples.map { $0.number("z") } == [300, 0])
        #expect(samples.map { $0.number("steps") } == [12, 0])
        #expect(samples.map { $0.number("vector_magnitude") } == [326.24, 0])
        #expect(samples[1].timestamp - samples[0].timestamp == 60)
        #expect(events.notices.first?.contains("configured at 0.016666666666666666 Hz") == true)
        #expect(events.notices.first?.contains("axes in counts, actilife v6.13.3, epoch 60 s") == true)
        #expect(events.notices.contains("an epoch (counts) export: axes are activity counts per 60 s epoch, not g"))
    }

    @Test func actilifeExportReadAsGENEActivSaysWhatItIs() throws {
        let path = recording(
            "a.csv", Self.actilifePreamble + "Accelerometer X,Accelerometer Y,Accelerometer Z\n0,0,1\n")
        #expect(
            failure(path, "format: geneactiv-csv")
                == "\(path):1: not a GENEActiv CSV export: it should start with 'Device Type,GENEActiv', but it looks like an ActiLife CSV export"
        )
    }

    static let phyphox = """
        "Time (s)","Acceleration x (m/s^2)","Acceleration y (m/s^2)","Acceleration z (m/s^2)","Absolute acceleration (m/s^2)"
        1.510436083E-2,4.818052291E-1,-2.159667015E-1,9.776550293E0,9.791869305E0
        2.510436083E-2,4.842004776E-1,-2.183618546E-1,9.798103333E0,9.813487243E0

        """

    @Test func phyphoxIsReadByNameAndSaysItsUnit() throws {
        let (samples, events) = try replayAll(recording("Raw Data.csv", Self.phyphox))
        #expect(samples.map { $0.number("x") } == [0.4818052291, 0.4842004776])
        #expect(samples.map { $0.number("z") } == [9.776550293, 9.798103333])
        #expect(samples.map(\.timestamp) == [0.01510436083, 0.02510436083])
        #expect(samples[0].number("Absolute acceleration (m/s^2)") == 9.791869305)
        #expect(events.notices.first == "format csv, device phyphox, axes in m/s^2")
    }

    @Test func unitsGConvertsMetresPerSecondSquared() throws {
        let (samples, events) = try replayAll(recording("Raw Data.csv", Self.phyphox), "units: g")
        #expect(close(samples[0].number("z"), 9.776550293 / 9.80665, 1e-12))
        #expect(close(samples[1].number("x"), 0.4842004776 / 9.80665, 1e-12))
        #expect(events.notices.first == "format csv, device phyphox, axes in g")
        #expect(events.notices.contains("axes converted from m/s² to g (÷ 9.80665), as units: g asks"))
    }

    @Test func columnsNameQuotedHeaders() throws {
        let config =
            "columns: {time: \"Time (s)\", x: \"Acceleration y (m/s^2)\", y: \"Acceleration x (m/s^2)\", z: \"Acceleration z (m/s^2)\"}"
        let (samples, _) = try replayAll(recording("Raw Data.csv", Self.phyphox), config)
        #expect(samples.map { $0.number("x") } == [-0.2159667015, -0.2183618546])
    }

    @Test func unitsGWithoutAStatedUnitIsRefused() throws {
        let path = recording("plain.csv", "t,x,y,z\n0,1,1,1\n")
        do {
            _ = try replay(path, "units: g")
            Issue.record("units: g was accepted")
        } catch {
            #expect(
                "\(error)"
                    == "\(path):1: units: g needs the unit the axes are recorded in, and the header names none (such as 'x (m/s^2)')"
            )
        }
    }

    @Test func sensorLoggerNanosecondTimesAndAxesInAnyOrder() throws {
        let text = """
            time,seconds_elapsed,z,y,x
            1698393034218633000,0.0021,-9.61,0.52,-1.13
            1698393034228633000,0.0121,-9.65,0.50,-1.10

            """
        let (samples, events) = try replayAll(recording("Accelerometer.csv", text))
        #expect(samples.map { $0.number("x") } == [-1.13, -1.10])
        #expect(samples.map { $0.number("z") } == [-9.61, -9.65])
        #expect(close(samples[0].timestamp, 1_698_393_034.218633, 1e-6))
        #expect(events.notices.first == "format csv, device Sensor Logger, axes in m/s^2")
        let (inG, _) = try replayAll(recording("Accelerometer.csv", text), "units: g")
        #expect(close(inG[0].number("z"), -9.61 / 9.80665, 1e-12))
    }

    func failure(_ path: String, _ extra: String) -> String {
        do {
            return replayUntilFailure(try replay(path, extra)).error.map { "\($0)" } ?? "no error"
        } catch {
            return "\(error)"
        }
    }
}
