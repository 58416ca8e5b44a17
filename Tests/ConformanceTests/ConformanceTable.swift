import DAQCore

/// Every built-in plugin's conformance entry, by module; see the `Entries+*.swift` files.
enum ConformanceTable {
    static var entries: [Entry] {
        standard + exec + motion + loggers + ble + barcode + liveScanners + services + lsl + storage
    }

    /// Built-in plugins the suite cannot run in-process, each with the reason.
    static let exclusions: [Exclusion] = [
        Exclusion(
            kind: .source, type: "lsl",
            reason:
                "needs an LSL stream on a network, which a test may only make inside a network namespace of its own; LSLSourceTests run it there against a pylsl outlet"
        ),
        Exclusion(
            kind: .sink, type: "lsl",
            reason:
                "publishes LSL outlets, which a test may only do inside a network namespace of its own; LSLSinkTests run it there with LabRecorderCLI and a pylsl inlet"
        ),
        Exclusion(
            kind: .source, type: "ble.scan",
            reason:
                "opens a Bluetooth HCI socket, which needs an adapter and CAP_NET_ADMIN; its parsing runs through ble.replay here and HCIControllerTests with captured bytes"
        ),
        Exclusion(
            kind: .source, type: "stdin",
            reason:
                "reads the test process's own standard input, which one in-process run cannot give each check; StdinSource shares RecordDecoder with the file source checked here"
        ),
        Exclusion(
            kind: .source, type: "infomanager.news",
            reason:
                "emits only the news items that changed, a handful per poll, so there is no input to scale, drain or stall; NewsSourceTests run it against the reference server (virtual clock, realtime polling, an unreachable service)"
        ),
    ]
}
