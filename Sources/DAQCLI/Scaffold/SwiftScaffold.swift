import DAQCore

/// The Swift package `daq plugins new NAME --kind KIND` writes: a library target with the
/// plugin, an executable `daq-NAME` (every verb plus the plugin), Swift Testing tests that use
/// DAQTesting, an example pipeline and a README.
///
/// Every file is text built here, so what users get is reviewed like the rest of the code and
/// checked by `scripts/test.sh`, which builds a scaffold of each kind and runs its tests.
struct SwiftScaffold {
    let name: ScaffoldName
    let kind: PluginKind
    /// The DAQKit checkout the package depends on, absolute.
    let daqkit: String

    var type: String { name.swiftType(kind) }

    /// Every file, paths relative to the package folder.
    var files: [ScaffoldFile] {
        [
            ScaffoldFile(path: "Package.swift", contents: packageManifest),
            ScaffoldFile(path: "Sources/\(name.module)/\(type).swift", contents: pluginSource),
            ScaffoldFile(path: "Sources/\(name.module)/\(name.camel)Plugins.swift", contents: registration),
            ScaffoldFile(path: "Sources/\(name.executable)/main.swift", contents: main),
            ScaffoldFile(path: "Tests/\(name.module)Tests/\(type)Tests.swift", contents: tests),
            ScaffoldFile(path: "pipelines/\(name.typeName).yaml", contents: pipeline),
            ScaffoldFile(path: "README.md", contents: readme),
            ScaffoldFile(path: ".gitignore", contents: ".build/\n.swiftpm/\nout/\n"),
        ]
    }

    var packageManifest: String {
        #"""
        // swift-tools-version: 6.0
        import PackageDescription

        // The \#(name.typeName) \#(kind.rawValue) for DAQKit, and \#(name.executable): a daq with every verb and
        // built-in plugin plus this one. Written by `daq plugins new`.
        let package = Package(
            name: "\#(name.typeName)",
            platforms: [.macOS(.v15)],
            products: [
                .executable(name: "\#(name.executable)", targets: ["\#(name.executable)"]),
                .library(name: "\#(name.module)", targets: ["\#(name.module)"]),
            ],
            dependencies: [
                // The DAQKit checkout this package was generated from; point it at yours to build
                // elsewhere. `name:` lets the products below say `package: "DAQKit"` whatever the
                // checkout's folder is called.
                .package(name: "DAQKit", path: "\#(swiftLiteral(daqkit))"),
            ],
            targets: [
                .target(name: "\#(name.module)", dependencies: [.product(name: "DAQKit", package: "DAQKit")]),
                .executableTarget(
                    name: "\#(name.executable)",
                    dependencies: ["\#(name.module)", .product(name: "DAQKit", package: "DAQKit")]),
                .testTarget(
                    name: "\#(name.module)Tests",
                    dependencies: [
                        "\#(name.module)", .product(name: "DAQKit", package: "DAQKit"),
                        .product(name: "DAQTesting", package: "DAQKit"),
                    ]),
            ]
        )

        """#
    }

    var registration: String {
        #"""
        import DAQKit

        /// The plugins of this package, for `DAQCommand.main(plugins:)` and for tests.
        public enum \#(name.camel)Plugins {
            /// `\#(name.typeName)` (\#(kind.rawValue)).
            public static let all: [PluginDescriptor] = [.\#(kind.rawValue)(\#(type).self, module: "\#(name.module)")]
        }

        """#
    }

    var main: String {
        #"""
        // A daq with every verb and built-in plugin, plus this package's: `swift run \#(name.executable) plugins`.
        import DAQKit
        import \#(name.module)

        DAQCommand.main(plugins: BuiltinPlugins.all + \#(name.camel)Plugins.all)

        """#
    }

    var readme: String {
        #"""
        # \#(name.typeName)

        A DAQKit \#(kind.rawValue), `type: \#(name.typeName)`, and `\#(name.executable)`: a `daq` with every verb
        and built-in plugin plus this one. Written by `daq plugins new \#(name.typeName) --kind \#(kind.rawValue)`;
        it builds and its tests pass as generated. Make it yours in
        `Sources/\#(name.module)/\#(type).swift`: every key in `Configuration` needs its line in
        `configKeys`, which is what `daq plugins describe` prints.

        ```sh
        swift test                                              # the plugin on DAQTesting's virtual clock
        swift run \#(name.executable) plugins describe \#(name.typeName)
        swift run \#(name.executable) run pipelines/\#(name.typeName).yaml  # writes \#(outputPath)
        ```

        `Package.swift` depends on the DAQKit checkout at `\#(daqkit)` by path; change it to
        build elsewhere.

        """#
    }

    /// Where the example pipeline writes, relative to the package folder.
    var outputPath: String { kind == .sink ? "out/\(name.typeName).tsv" : "out/\(name.typeName).jsonl" }

    /// `text` as the inside of a Swift string literal.
    private func swiftLiteral(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }
}
