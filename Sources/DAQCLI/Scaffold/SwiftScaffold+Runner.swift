extension SwiftScaffold {
    /// The `daq` with this plugin beside every built-in one, as a package of its own in `daq/`:
    /// it depends on all of DAQKit (networking and crypto included), so the plugin package's own
    /// `swift build` and `swift test` stay quick, and only `swift run --package-path daq` pays
    /// for a whole `daq`. Its program is named after the plugin because DAQKit already has a
    /// product named `daq`, and product names are one namespace across a package graph.
    var runnerFiles: [ScaffoldFile] {
        [
            ScaffoldFile(path: "daq/Package.swift", contents: runnerManifest),
            ScaffoldFile(path: "daq/Sources/\(runnerName)/main.swift", contents: runnerMain),
        ]
    }

    /// `daq-<plugin>`: the `daq` that has this plugin.
    var runnerName: String { "daq-\(name.typeName.replacingOccurrences(of: ".", with: "-"))" }

    /// The command, run in the package folder, that runs the example pipeline with the plugin.
    var runCommand: String { "swift run --package-path daq \(runnerName) run pipelines/\(name.typeName).yaml" }

    var runnerManifest: String {
        #"""
        // swift-tools-version: 6.0
        import PackageDescription

        // `daq` with the \#(name.typeName) \#(kind.rawValue) beside every built-in plugin. Written by
        // `daq plugins new`. From the plugin package's folder:
        //   \#(runCommand)
        let package = Package(
            name: "\#(runnerName)",
            platforms: [.macOS(.v15)],
            dependencies: [
                .package(name: "\#(name.typeName)", path: ".."),
                .package(name: "DAQKit", path: "\#(daqkitLiteral)"),
            ],
            targets: [
                .executableTarget(
                    name: "\#(runnerName)",
                    dependencies: [
                        .product(name: "\#(name.module)", package: "\#(name.typeName)"),
                        .product(name: "DAQKit", package: "DAQKit"),
                    ]),
            ]
        )

        """#
    }

    var runnerMain: String {
        #"""
        import DAQKit
        import \#(name.module)

        // Every verb of `daq`, every built-in plugin, and this package's.
        DAQCommand.main(plugins: BuiltinPlugins.all + \#(name.camel)Plugins.all)

        """#
    }
}
