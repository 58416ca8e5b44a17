import DAQCore

/// The Swift package `daq plugins new NAME --kind KIND` writes: a library target with the
/// plugin, Swift Testing tests that use DAQTesting, an example pipeline and a README.
///
/// The package is a package of plugins: it depends on DAQCore and DAQTesting (and DAQStandard,
/// whose `generator` and `file` its tests wire the plugin to), which compile no networking or
/// crypto, so its first build takes a fraction of DAQKit's. A `daq` with the plugin is a
/// separate executable on DAQKit; the README shows it (Examples/CustomPlugin has both).
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
            ScaffoldFile(path: ".gitignore", contents: ".build/\n.swiftpm/\nout/\n"),
        ]
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
                .package(name: "DAQKit", path: "\#(swiftLiteral(daqkit))"),
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

        This is a package of plugins: it depends on DAQCore (the plugin API) and DAQTesting, and
        builds none of `daq`'s networking. To run the plugin with `daq` itself, make a `daq` that
        has it: a package (or an executable target) that depends on this library and on DAQKit,
        with a `main.swift` of

        ```swift
        import DAQKit
        import \#(name.module)

        DAQCommand.main(plugins: BuiltinPlugins.all + \#(name.camel)Plugins.all)
        ```

        Then `swift run <that executable> run pipelines/\#(name.typeName).yaml` writes \#(outputPath).
        DAQKit's Examples/CustomPlugin has both shapes side by side.

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
