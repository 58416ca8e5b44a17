import Foundation
import Testing

/// What each product of Package.swift makes a user compile, read from `swift package
/// dump-package`: a package of plugins (DAQCore + DAQTesting) compiles no networking or
/// crypto, and a custom `daq` (DAQKit) still gets every verb and built-in plugin.
@Suite("package products", .timeLimit(.minutes(20)))
struct PackageShapeTests {
    /// The packages a plugin author should not have to compile.
    static let heavy: Set<String> = [
        "swift-nio", "swift-nio-ssl", "hummingbird", "async-http-client", "swift-prometheus", "swift-crypto",
    ]

    /// The manifest's targets (name → dependencies) and products (name → targets).
    struct Manifest {
        var targets: [String: [Dependency]] = [:]
        var products: [String: [String]] = [:]

        enum Dependency: Hashable {
            case target(String)
            case product(String, package: String)
        }

        /// Every target and outside product `product` builds.
        func closure(ofProduct product: String) -> (targets: Set<String>, packages: Set<String>) {
            var targets = Set<String>()
            var packages = Set<String>()
            var queue = products[product] ?? []
            while let name = queue.popLast() {
                guard targets.insert(name).inserted else { continue }
                for dependency in self.targets[name] ?? [] {
                    switch dependency {
                    case .target(let t): queue.append(t)
                    case .product(_, let package): packages.insert(package)
                    }
                }
            }
            return (targets, packages)
        }
    }

    /// `swift package dump-package` of this package, with a scratch path of its own, so it does
    /// not wait for the lock of the `swift test` that runs it.
    static func dumpPackage() throws -> Data {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("daq-dump-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let r = try DAQBinary.tool(["swift", "package", "--scratch-path", scratch.path, "dump-package"])
        try #require(r.status == 0, "swift package dump-package failed (is `swift` on PATH?): \(r.err)")
        return r.out
    }

    /// The manifest's targets and products.
    static func manifest() throws -> Manifest {
        let json = try #require(try JSONSerialization.jsonObject(with: try dumpPackage()) as? [String: Any])
        var manifest = Manifest()
        for product in json["products"] as? [[String: Any]] ?? [] {
            manifest.products[product["name"] as? String ?? ""] = product["targets"] as? [String] ?? []
        }
        for target in json["targets"] as? [[String: Any]] ?? [] {
            var dependencies: [Manifest.Dependency] = []
            for dependency in target["dependencies"] as? [[String: [Any]]] ?? [] {
                if let name = (dependency["byName"] ?? dependency["target"])?.first as? String {
                    dependencies.append(.target(name))
                } else if let product = dependency["product"], let name = product.first as? String,
                    let package = product.dropFirst().first as? String
                {
                    dependencies.append(.product(name, package: package.lowercased()))
                }
            }
            manifest.targets[target["name"] as? String ?? ""] = dependencies
        }
        return manifest
    }

    @Test(arguments: ["DAQCore", "DAQTesting"])
    func aPluginPackageCompilesNoNetworkingOrCrypto(_ product: String) throws {
        let manifest = try Self.manifest()
        try #require(manifest.products[product] != nil, "no library product \(product)")
        let (targets, packages) = manifest.closure(ofProduct: product)
        #expect(packages.isDisjoint(with: Self.heavy), "\(product) pulls \(packages.intersection(Self.heavy).sorted())")
        #expect(!targets.contains("DAQCLI") && !targets.contains("DAQInfoManagerServer"), "\(targets.sorted())")
    }

    /// scripts/check-imports.py, which CI runs: every module a target imports is one of its
    /// declared dependencies, not one reached through another target's.
    @Test func everyImportIsADeclaredDependency() throws {
        let r = try DAQBinary.tool(["python3", "scripts/check-imports.py"], input: try Self.dumpPackage())
        #expect(r.status == 0, "\(r.err)")
    }

    @Test func everyPluginFamilyIsAProduct() throws {
        let manifest = try Self.manifest()
        for family in ["Standard", "Motion", "SampleLogger", "BLE", "Barcode", "InfoManager", "Transport"] {
            #expect(manifest.products["DAQ" + family] == ["DAQ" + family], "DAQ\(family)")
        }
        // The resolver plugins need an HTTP client, not the reference server's HTTP server.
        #expect(!manifest.closure(ofProduct: "DAQInfoManager").packages.contains("hummingbird"))
    }

    @Test func daqKitStillBuildsACustomDaqWithEveryPlugin() throws {
        let manifest = try Self.manifest()
        let (targets, _) = manifest.closure(ofProduct: "DAQKit")
        let families = ["Standard", "Motion", "SampleLogger", "BLE", "Barcode", "InfoManager", "Transport"]
        for needed in ["DAQCLI", "DAQCore", "DAQInfoManagerServer"] + families.map({ "DAQ" + $0 }) {
            #expect(targets.contains(needed), "DAQKit does not build \(needed)")
        }
        // `BuiltinPlugins` is in DAQKit: the command tree itself names no plugin family.
        let builtins = DAQBinary.repository.appendingPathComponent("Sources/DAQKit/BuiltinPlugins.swift")
        #expect(FileManager.default.fileExists(atPath: builtins.path))
    }
}
