import DAQCore

/// The Swift package `daq plugins new NAME --kind KIND` writes: a library target with the
/// plugin, Swift Testing tests that use DAQTesting, an example pipeline and a README.
///
/// The package is a package of plugins: it depends on DAQCore and DAQTesting (and DAQStandard,
/// whose `generator` and `file` its tests wire the plugin to), which compile no networking or
/// crypto, so its first build takes a fraction of DAQKit's. A `daq` with the plugin is a
/// package of its own in `daq/` (``runnerFiles``), which builds all of DAQKit only when run.
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
            ScaffoldFile(path: "Tests/\(name.module)Tests/\(type)Tests.swift", contents: tests),
            ScaffoldFile(path: "pipelines/\(name.typeName).yaml", contents: pipeline),
            ScaffoldFile(path: "README.md", contents: readme),
            ScaffoldFile(path: ".gitignore", contents: ".build/\n.swiftpm/\nout/\ndaq/.build/\n"),
        ] + runnerFiles
    }

    var packageManifest: String {
        #"""
        // swift-tools-version: 6.0
        import PackageDescription

        // The \#(name.typeName) \#(kind.rawValue) for DAQKit. Written by `daq plugins new`.
        // A package of plugins: DAQCore (the plugin API) and DAQTesting, none of DAQKit's networking.
        let package = Package(
            name: "\#(name.typeName)",
            platforms: [.macOS(.v15)],
            products: [
                .library(name: "\#(name.module)", targets: ["\#(name.module)"]),
            ],
            dependencies: [
                // The DAQKit checkout this package was generated from; point it at yours to build
                // elsewhere. `name:` lets the products below say `package: "DAQKit"` whatever the
                // checkout's folder is called.
                .package(name: "DAQKit", path: "\#(daqkitLiteral)"),
            ],
            targets: [
                .target(name: "\#(name.module)", dependencies: [.product(name: "DAQCore", package: "DAQKit")]),
                .testTarget(
                    name: "\#(name.module)Tests",
                    dependencies: [
                        "\#(name.module)", .product(name: "DAQCore", package: "DAQKit"),
                        .product(name: "DAQTesting", package: "DAQKit"),
                        // The `generator` and `file` plugins the example pipeline wires this one to.
                        .product(name: "DAQStandard", package: "DAQKit"),
                    ]),
            ]
        )

        """#
    }

    var registration: String {
        #"""
        import DAQCore

        /// The plugins of this package, for `DAQCommand.main(plugins:)` and for tests.
        public enum \#(name.camel)Plugins {
            /// `\#(name.typeName)` (\#(kind.rawValue)).
            public static let all: [PluginDescriptor] = [.\#(kind.rawValue)(\#(type).self, module: "\#(name.module)")]
        }

        """#
    }

    var readme: String {
        #"""
        # \#(name.typeName)

        A DAQKit \#(kind.rawValue), `type: \#(name.typeName)`. Written by `daq plugins new \#(name.typeName) --kind \#(kind.rawValue)`;
        it builds and its tests pass as generated. Make it yours in
        `Sources/\#(name.module)/\#(type).swift`: each key in `Configuration` is one `@Setting` (name,
        type, default, help), which decoding reads and `daq plugins describe` prints.

        ```sh
        swift test    # the plugin on DAQTesting's virtual clock, and pipelines/\#(name.typeName).yaml
        ```

        To run it with `daq` itself, beside every built-in plugin:

        ```sh
        \#(runCommand)
        ```

        That `daq` (`daq/`, a package of its own) writes \#(outputPath). Its first build compiles
        all of DAQKit, networking included, once; this package itself depends only on DAQCore (the
        plugin API) and DAQTesting, so `swift build` and `swift test` here stay quick. Any verb
        works the same way: `swift run --package-path daq \#(runnerName) plugins describe \#(name.typeName)`.

        `Package.swift` and `daq/Package.swift` depend on the DAQKit checkout at `\#(daqkit)` by
        path; change both to build elsewhere.

        """#
    }

    /// Where the example pipeline writes, relative to the package folder.
    var outputPath: String { kind == .sink ? "out/\(name.typeName).tsv" : "out/\(name.typeName).jsonl" }

    /// The checkout's path inside a Swift string literal.
    var daqkitLiteral: String { swiftLiteral(daqkit) }

    /// `text` as the inside of a Swift string literal.
    private func swiftLiteral(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }
}
