import Foundation
import Yams

extension TestFileParser {
    static let serviceKinds = ["resolver"]
    static let resolverKeys = ["data", "env"]

    /// `requires: [MQTT_URL, …]`: names of environment variables, so a typo is caught here
    /// and not read as "unset" forever.
    mutating func requires(_ node: Node, _ path: String) -> [(name: String, place: Place)] {
        guard let names = reader.strings(node, path) else { return [] }
        var out: [(String, Place)] = []
        for (i, (name, n)) in names.enumerated() {
            guard Self.isVariableName(name) else {
                reader.error(
                    n, "\(path)[\(i)]",
                    "expected the name of an environment variable (letters, digits, _), found '\(name)'")
                continue
            }
            out.append((name, reader.place(n)))
        }
        return out
    }

    /// `services: {resolver: {data: FILE, env: RESOLVER_URL}}`.
    mutating func services(_ node: Node, _ path: String, testFile: String) -> [ServiceSpec] {
        var out: [ServiceSpec] = []
        for p in reader.mapping(node, path, allowed: Self.serviceKinds) ?? [] {
            let key = "\(path).\(p.key)"
            guard let pairs = reader.mapping(p.value, key, allowed: Self.resolverKeys) else { continue }
            var service = ServiceSpec(data: "", variable: "RESOLVER_URL", place: reader.place(p.keyNode))
            var dataNode: Node?
            for o in pairs {
                switch o.key {
                case "data":
                    dataNode = o.value
                    let name = reader.string(o.value, "\(key).data")
                    service.data = name.map { Self.resolve($0, besides: testFile) } ?? ""
                default:
                    guard let name = reader.string(o.value, "\(key).env") else { continue }
                    if Self.isVariableName(name) {
                        service.variable = name
                    } else {
                        reader.error(
                            o.value, "\(key).env", "expected the name of an environment variable, found '\(name)'")
                    }
                }
            }
            guard let dataNode else {
                reader.error(p.value, key, "missing 'data': the elements file the reference server answers from")
                continue
            }
            if !service.data.isEmpty && !FileManager.default.fileExists(atPath: service.data) {
                reader.error(dataNode, "\(key).data", "'\(service.data)' does not exist (relative to the test file)")
                continue
            }
            out.append(service)
        }
        return out
    }

    static func isVariableName(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic)
        else { return false }
        return s.unicodeScalars.allSatisfy {
            $0 == "_" || ($0.isASCII && $0.properties.isAlphabetic) || ("0"..."9").contains($0)
        }
    }
}
