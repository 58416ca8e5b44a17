// swift-tools-version: 6.0
import PackageDescription

// The two shapes of a package that uses DAQKit, in one package:
// - `LabPlugins` is a library of plugins. It depends on DAQCore, the plugin API, and its tests on
//   DAQTesting (and DAQStandard for the `file` sink), none of which compile networking or crypto:
//   a package of plugins alone, and whoever depends on it, builds in a fraction of DAQKit's time.
// - `daq-custom` is a custom `daq`: DAQKit's every verb and built-in plugin, plus LabPlugins.
let package = Package(
    name: "CustomPlugin",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "daq-custom", targets: ["daq-custom"]),
        .library(name: "LabPlugins", targets: ["LabPlugins"]),
    ],
    dependencies: [
        // `name:` lets the products below say `package: "DAQKit"` whatever the checkout's
        // folder is called (a path dependency's identity is its folder name).
        .package(name: "DAQKit", path: "../..")
    ],
    targets: [
        .target(name: "LabPlugins", dependencies: [.product(name: "DAQCore", package: "DAQKit")]),
        .executableTarget(
            name: "daq-custom",
            dependencies: ["LabPlugins", .product(name: "DAQKit", package: "DAQKit")]),
        .testTarget(
            name: "LabPluginsTests",
            dependencies: [
                "LabPlugins", .product(name: "DAQCore", package: "DAQKit"),
                .product(name: "DAQTesting", package: "DAQKit"), .product(name: "DAQStandard", package: "DAQKit"),
            ]),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
