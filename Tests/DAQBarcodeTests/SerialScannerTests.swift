import DAQCore
import DAQTesting
import Foundation
import Testing

@testable import DAQBarcode

#if canImport(Glibc)
    import Glibc
#endif

/// A pseudo-terminal standing in for a serial scanner: the source opens `link`, a symlink to
/// the slave side; the test writes what the scanner would send to the master side.
final class FakeScannerPort {
    let link: String
    private(set) var master: Int32 = -1

    init() throws {
        link = tempDirectory() + "/ttyACM0"
        try plugIn()
    }

    /// A new pty behind `link`, as when a scanner is plugged (back) in.
    func plugIn() throws {
        var m: Int32 = 0
        var s: Int32 = 0
        try #require(openpty(&m, &s, nil, nil, nil) == 0, "openpty: \(String(cString: strerror(errno)))")
        var t = termios()
        tcgetattr(s, &t)
        cfmakeraw(&t)
        tcsetattr(s, TCSANOW, &t)
        let name = String(cString: ttyname(s))
        close(s)
        unlink(link)
        try #require(symlink(name, link) == 0)
        master = m
    }

    /// The scanner is pulled out.
    func unplug() {
        close(master)
        master = -1
        unlink(link)
    }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        #expect(write(master, bytes, bytes.count) == bytes.count)
    }

    deinit { if master >= 0 { close(master) } }
}

@Suite(.serialized, .timeLimit(.minutes(20))) struct SerialScannerTests {
    func scanner(_ port: FakeScannerPort, _ extra: String = "") throws -> SourceHarness {
        try SourceHarness(
            SerialScannerSource.self,
            config: "device: \"\(port.link)\"\nbaud: 115200\nreopen_interval: 0.05 s\n" + extra,
            name: "scanner", clock: RunClock(mode: .realtime))
    }

    @Test func codesArriveAsSessionsThroughARealTerminal() throws {
        let port = try FakeScannerPort()
        let h = try scanner(port)
        defer { h.stop() }
        port.send("4006381333931\r\n]C1")
        port.send("0109501101530003\r\n")
        let samples = try h.read(until: { $0.filter { $0.event == "scan.stop" }.count == 2 })
        #expect(sessionsAreWellFormed(samples))
        let data = samples.filter { $0.event == "scan.data" }
        #expect(data.map { $0["code"]?.stringValue } == ["4006381333931", "0109501101530003"])
        #expect(data[1]["aim"] == .string("]C1") && data[1]["raw"] == .bytes(Array("]C10109501101530003".utf8)))
    }

    @Test func deviceLossEndsTheSessionInAnErrorAndTheDeviceIsReopened() throws {
        let port = try FakeScannerPort()
        let h = try scanner(port)
        defer { h.stop() }
        port.send("ABC")  // a code begins…
        _ = try h.read(until: { $0.contains { $0.event == "scan.start" } })
        port.unplug()  // …and the cable is pulled
        var samples = try h.read(until: { $0.contains { $0.event == "scan.stop" } })
        #expect(
            timeline(samples).map { $0.replacingOccurrences(of: #"@\d+"#, with: "", options: .regularExpression) }
                == ["scan.error#1 (connection lost: the device hung up)", "scan.stop#1"])
        #expect(h.events.warnings.contains { $0.contains("connection lost") && $0.contains("3 bytes of a code lost") })

        try port.plugIn()
        port.send("XYZ\r")
        samples = try h.read(until: { $0.contains { $0.event == "scan.stop" } })
        #expect(samples.filter { $0.event == "scan.data" }.map { $0["code"]?.stringValue } == ["XYZ"])
        #expect(h.events.notices.contains("\(port.link): reopened"))
    }

    @Test func triggeredSessionsOnTheLiveClock() throws {
        let port = try FakeScannerPort()
        // Long enough that a loaded machine delivers the code before the session times out.
        let h = try scanner(port, "mode: triggered\ntimeout: 2 s")
        defer { h.stop() }
        h.send(ControlCommand("trigger"))
        var samples = try h.read(until: { $0.contains { $0.event == "scan.start" } })
        port.send("CODE\r")
        samples += try h.read(until: { $0.contains { $0.event == "scan.stop" } })
        #expect(samples.filter { $0.event == "scan.data" }.map { $0["code"]?.stringValue } == ["CODE"])
        h.send(ControlCommand("trigger"))
        let timedOut = try h.read(until: { $0.contains { $0.event == "scan.stop" } })
        let names = timedOut.map(\.event)
        try #require(names == ["scan.start", "scan.timeout", "scan.stop"])
        #expect(abs(timedOut[1].uptime - timedOut[0].uptime - 2) < 1e-9)
        h.send(ControlCommand("cancel"))  // nothing open: nothing happens
        #expect(try h.read().samples.isEmpty)
    }

    @Test func missingDeviceSaysWhatToDo() {
        let path = tempDirectory() + "/ttyUSB9"
        do {
            _ = try SourceHarness(
                SerialScannerSource.self, config: "device: \"\(path)\"", clock: RunClock(mode: .realtime))
            Issue.record("expected an error")
        } catch {
            #expect("\(error)" == "\(path): no such device — is the scanner plugged in?")
        }
    }

    @Test func aFileIsNotASerialPort() {
        let path = file("notatty", "")
        #expect(throws: DeviceError.self) { try SourceHarness(SerialScannerSource.self, config: "device: \"\(path)\"") }
    }

    /// A device its mode keeps the user from: `daq run` as an unprivileged user (root opens any
    /// device) fails to start and says which group to join.
    @Test func permissionDeniedNamesTheGroup() throws {
        let port = try FakeScannerPort()
        let target = try #require(realpath(port.link, nil))
        defer { free(target) }
        #expect(chmod(target, 0) == 0)
        let pipeline = file(
            "scanner.yaml",
            """
            name: locked
            clock: realtime
            sources: {scanner: {type: barcode.serial, device: "\(port.link)"}}
            sinks: {out: {type: "null", inputs: [scanner]}}
            """)
        let r = try Unprivileged.run(
            ServiceProcess.builtExecutable("daq"), ["run", pipeline, "--status", "never", "--no-control"])
        #expect(r.status == 1, "\(r.errors)")
        #expect(
            r.errors.contains(
                "\(port.link): permission denied — add your user to the 'dialout' group (sudo usermod -aG dialout $USER, then log in again) or add a udev rule"
            ), "\(r.errors)")
    }

    @Test func lineSettingsAreChecked() {
        #expect(throws: ConfigIssue.self) {
            try PluginConfigLoader.decode(SerialScannerSource.Configuration.self, yaml: "device: x\nbaud: 1234")
        }
        #expect(throws: ConfigIssue.self) {
            try PluginConfigLoader.decode(SerialScannerSource.Configuration.self, yaml: "device: x\ndata_bits: 9")
        }
        #expect(throws: (any Error).self) {
            try PluginConfigLoader.decode(SerialScannerSource.Configuration.self, yaml: "device: x\nterminator: tab")
        }
        #expect(throws: ConfigIssue.self) {
            try PluginConfigLoader.decode(SerialScannerSource.Configuration.self, yaml: "device: x\ncontrol: ctl")
        }
    }
}
