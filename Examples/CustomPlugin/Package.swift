// swift-tools-version: 6.0
import PackageDescription

// A package of custom DAQKit plugins with its own `daq` build, `daq-custom`.
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
        .target(name: "LabPlugins", dependencies: [.product(name: "DAQKit", package: "DAQKit")]),
        .executableTarget(
            name: "daq-custom",
            dependencies: ["LabPlugins", .product(name: "DAQKit", package: "DAQKit")]),
        .testTarget(
            name: "LabPluginsTests",
            dependencies: [
                "LabPlugins", .product(name: "DAQKit", package: "DAQKit"),
                .product(name: "DAQTesting", package: "DAQKit"),
            ]),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
