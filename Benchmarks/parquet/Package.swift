// swift-tools-version: 6.0
import PackageDescription

// The parquet sink alone, built in release without the rest of DAQKit (no NIO, no crypto):
// DAQCore and DAQStorage are all it needs. Run by ../parquet.sh.
let package = Package(
    name: "parquet-bench",
    platforms: [.macOS(.v15)],
    // `name:` lets the products say `package: "DAQKit"` whatever the checkout's folder is called.
    dependencies: [.package(name: "DAQKit", path: "../..")],
    targets: [
        .executableTarget(
            name: "parquet-bench",
            dependencies: [
                .product(name: "DAQCore", package: "DAQKit"), .product(name: "DAQStorage", package: "DAQKit"),
            ])
    ]
)
