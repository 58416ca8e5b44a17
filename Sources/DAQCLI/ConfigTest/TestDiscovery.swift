import Foundation

/// Finds test files: the files named, and every `*.daqtest.yaml` under the folders named.
enum TestDiscovery {
    static let suffixes = [".daqtest.yaml", ".daqtest.yml"]

    /// `pipelines/` when the working directory has one, else the working directory.
    static func defaultRoots() -> [String] {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: "pipelines", isDirectory: &isDir) && isDir.boolValue
            ? ["pipelines"] : ["."]
    }

    /// Files as given (a missing one is reported when read), folders searched recursively,
    /// hidden folders and `.build` skipped; sorted within each folder.
    static func files(_ arguments: [String]) -> [String] {
        var out: [String] = []
        for arg in arguments {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: arg, isDirectory: &isDir), isDir.boolValue else {
                out.append(arg)
                continue
            }
            guard let walker = FileManager.default.enumerator(atPath: arg) else { continue }
            var found: [String] = []
            while let rel = walker.nextObject() as? String {
                let name = (rel as NSString).lastPathComponent
                if name.hasPrefix(".") || name == "node_modules" {
                    walker.skipDescendants()
                    continue
                }
                if suffixes.contains(where: name.hasSuffix) {
                    found.append(arg == "." ? rel : (arg as NSString).appendingPathComponent(rel))
                }
            }
            out += found.sorted()
        }
        return out
    }
}
