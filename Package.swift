// swift-tools-version: 6.0
import PackageDescription

/// Settings every target shares, applied in one loop so no target drifts from the others.
let sharedSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "DAQKit",
    platforms: [.macOS(.v15)],
    products: [
        // A custom `daq`: every verb and built-in plugin (`BuiltinPlugins.all`), plus your own.
        .library(name: "DAQKit", targets: ["DAQKit"]),
        // The plugin API and its test harness: what a package of plugins depends on. Neither
        // compiles networking or crypto (SwiftNIO, BoringSSL, Hummingbird, AsyncHTTPClient,
        // Prometheus): a plugin package builds in a fraction of DAQKit's time.
        .library(name: "DAQCore", targets: ["DAQCore"]),
        .library(name: "DAQTesting", targets: ["DAQTesting"]),
        // Each plugin family on its own, for a program that embeds a few of them.
        .library(name: "DAQStandard", targets: ["DAQStandard"]),
        .library(name: "DAQMotion", targets: ["DAQMotion"]),
        .library(name: "DAQSampleLogger", targets: ["DAQSampleLogger"]),
        .library(name: "DAQBLE", targets: ["DAQBLE"]),
        .library(name: "DAQBarcode", targets: ["DAQBarcode"]),
        .library(name: "DAQInfoManager", targets: ["DAQInfoManager"]),
        .library(name: "DAQTransport", targets: ["DAQTransport"]),
        .library(name: "DAQLSL", targets: ["DAQLSL"]),
        .library(name: "DAQStorage", targets: ["DAQStorage"]),
        // swift-crypto's SHA-256 for the hashes a run records, which DAQCore leaves to the program.
        .library(name: "DAQSHA256", targets: ["DAQSHA256"]),
        .executable(name: "daq", targets: ["daq"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // `PipelineRun` is a `Service`; the package needs only swift-log and swift-async-algorithms,
        // so DAQCore stays free of NIO.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // The `postgres` sink's wire protocol (SCRAM, TLS, COPY); it builds on the SwiftNIO that
        // DAQTransport already compiles.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(
            name: "DAQCore",
            dependencies: [
                "CZlib",
                .product(name: "Yams", package: "Yams"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(name: "DAQSHA256", dependencies: ["DAQCore", .product(name: "Crypto", package: "swift-crypto")]),
        .target(
            name: "DAQStandard",
            dependencies: ["DAQCore", .product(name: "DequeModule", package: "swift-collections")],
            path: "Plugins/Standard"),
        .target(
            name: "DAQMotion",
            dependencies: ["DAQCore", .product(name: "DequeModule", package: "swift-collections")],
            path: "Plugins/Motion"),
        .target(name: "DAQSampleLogger", dependencies: ["DAQCore"], path: "Plugins/SampleLogger"),
        .target(name: "DAQBLE", dependencies: ["DAQCore"], path: "Plugins/BLE"),
        .target(name: "DAQBarcode", dependencies: ["DAQCore"], path: "Plugins/Barcode"),
        .target(
            name: "DAQInfoManager",
            dependencies: [
                "DAQCore",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Yams", package: "Yams"),
            ],
            path: "Plugins/InfoManager"
        ),
        // The reference Info Manager service (`daq resolver serve`), apart from the resolver
        // plugins so that a program using them does not build Hummingbird.
        .target(
            name: "DAQInfoManagerServer",
            dependencies: [
                "DAQCore", "DAQInfoManager",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Plugins/InfoManagerServer"
        ),
        .target(
            name: "DAQTransport",
            dependencies: [
                "DAQCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            path: "Plugins/Transport"
        ),
        // liblsl is loaded at run time (dlopen), so nothing here links it: `daq` builds and runs
        // on a machine without it, and says how to get it when a pipeline first needs it.
        .target(name: "DAQLSL", dependencies: ["DAQCore", "CZlib"], path: "Plugins/LSL"),
        // Parquet written from the format's specification; libzstd is loaded at run time (dlopen),
        // as liblsl is, because Debian ships the library but not its headers.
        // The `postgres` sink speaks PostgreSQL's protocol through postgres-nio.
        .target(
            name: "DAQStorage",
            dependencies: [
                "DAQCore", "CZlib", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            path: "Plugins/Storage"),
        .target(
            name: "DAQCLI",
            dependencies: [
                "DAQCore", "DAQStandard", "DAQMotion", "DAQSampleLogger", "DAQBLE", "DAQBarcode", "DAQInfoManager",
                "DAQInfoManagerServer", "DAQTransport", "DAQLSL", "DAQStorage", "DAQSHA256",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "DAQKit",
            dependencies: [
                "DAQCore", "DAQCLI", "DAQStandard", "DAQMotion", "DAQSampleLogger", "DAQBLE", "DAQBarcode",
                "DAQInfoManager",
                "DAQTransport", "DAQLSL", "DAQStorage",
            ]),
        .target(name: "DAQTesting", dependencies: ["DAQCore", "CZlib", .product(name: "Yams", package: "Yams")]),
        .executableTarget(name: "daq", dependencies: ["DAQKit"]),
        .executableTarget(
            name: "daq-bench",
            dependencies: [
                "DAQKit", "DAQCLI", "DAQCore", "DAQBLE", "DAQInfoManager", "DAQInfoManagerServer", "DAQTransport",
                "DAQTesting",
            ],
            path: "Benchmarks/daq-bench"),
        // The program docs/guide/embedding.md shows, built and run by daqTests so the guide cannot drift.
        .executableTarget(
            name: "daq-embed-example",
            dependencies: [
                "DAQCore", "DAQStandard", .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Examples/Embedding"),
        .executableTarget(name: "ble-fuzz", dependencies: ["DAQBLE", "DAQCore"], path: "Fuzz/ble-fuzz"),
        .executableTarget(
            name: "readers-fuzz", dependencies: ["DAQMotion", "DAQBarcode", "DAQCore", "DAQTesting"],
            path: "Fuzz/readers-fuzz"),

        .testTarget(
            name: "DAQCoreTests",
            dependencies: [
                "DAQCore", "DAQTesting", "DAQSHA256",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(name: "DAQStandardTests", dependencies: ["DAQCore", "DAQStandard", "DAQTesting"]),
        .testTarget(
            name: "DAQCLITests",
            dependencies: [
                "DAQCLI", "DAQCore", "DAQKit", "DAQMotion", "DAQStandard", "DAQTesting", "daq",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]),
        // `daq` runs the checks that need an unprivileged user (Unprivileged.run).
        .testTarget(
            name: "DAQMotionTests", dependencies: ["DAQCore", "DAQMotion", "DAQSampleLogger", "DAQTesting", "daq"]),
        .testTarget(name: "DAQBLETests", dependencies: ["DAQCore", "DAQBLE", "DAQTesting"]),
        .testTarget(
            name: "DAQInfoManagerTests",
            dependencies: [
                "DAQCore", "DAQInfoManager", "DAQStandard", "DAQTesting", "daq",
                .product(name: "Yams", package: "Yams"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]),
        .testTarget(
            name: "DAQBarcodeTests", dependencies: ["DAQCore", "DAQBarcode", "DAQStandard", "DAQTesting", "daq"]),
        .testTarget(
            name: "DAQTransportTests",
            dependencies: [
                "DAQCore", "DAQTransport", "DAQCLI", "DAQKit", "DAQTesting",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ]),
        .testTarget(
            name: "DAQSampleLoggerTests",
            dependencies: ["DAQCore", "DAQSampleLogger", "DAQStandard", "DAQTesting", "DAQSHA256"]),
        .testTarget(
            name: "DAQLSLTests",
            dependencies: ["DAQCore", "DAQLSL", "DAQStandard", "DAQSampleLogger", "DAQTesting", "daq"]),
        .testTarget(
            name: "DAQStorageTests",
            // `daq` runs the postgres sink's runs that must fail at start or outlive a server restart.
            dependencies: ["DAQCore", "DAQStorage", "DAQStandard", "DAQSampleLogger", "DAQTesting", "daq"]),
        .testTarget(name: "DAQTestingTests", dependencies: ["DAQCore", "DAQTesting", "DAQStandard"]),
        // CZlib: the live-view tests decode the browser's PNG screenshots.
        .testTarget(name: "daqTests", dependencies: ["daq", "daq-embed-example", "DAQTesting", "CZlib"]),
        .testTarget(
            name: "ConformanceTests",
            dependencies: [
                "DAQCLI", "DAQCore", "DAQKit", "DAQTesting", "daq", .product(name: "Yams", package: "Yams"),
            ]),
    ]
)

for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + sharedSettings
}
