import DAQCore
import DAQTesting
import Foundation
import Testing

/// How a test's gzip file is made: by the real `gzip` tool (with the file name in its header),
/// or by Python's `gzip` module (`gzip.open` writes the name too; `gzip.compress` writes none).
enum GzipMaker: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case gzipTool, pythonOpen, pythonCompress

    var testDescription: String { rawValue }

    /// Compresses `source` into `target`.
    func make(_ source: String, _ target: String) throws {
        switch self {
        case .gzipTool: try shell("gzip -c -6 \"$0\" > \"$1\"", source, target)
        case .pythonOpen:
            try shell(
                "python3 -c 'import gzip,sys; f=gzip.open(sys.argv[2],\"wb\"); f.write(open(sys.argv[1],\"rb\").read()); f.close()' \"$0\" \"$1\"",
                source, target)
        case .pythonCompress:
            try shell(
                "python3 -c 'import gzip,sys; open(sys.argv[2],\"wb\").write(gzip.compress(open(sys.argv[1],\"rb\").read()))' \"$0\" \"$1\"",
                source, target)
        }
    }
}

/// Runs `script` with `sh -c` and `args` as `$0`, `$1`, …; returns its standard output.
@discardableResult
func shell(_ script: String, _ args: String...) throws -> String {
    let r = try Process.runToEnd("/bin/sh", ["-c", script] + args, timeout: 120)
    try #require(
        r.status == 0, "'\(script)' failed (is the tool installed? scripts/test.sh needs gzip and python3): \(r.errors)"
    )
    return r.output
}

/// What Python's `gzip.decompress` makes of a file: `ok <length>`, `truncated` (EOFError) or
/// `corrupt` (any other error): the independent verdict the reader's is checked against.
func pythonVerdict(_ path: String) throws -> String {
    try shell(
        """
        python3 -c '
        import gzip, sys
        try:
            d = gzip.decompress(open(sys.argv[1], "rb").read())
        except EOFError:
            print("truncated")
        except Exception:
            print("corrupt")
        else:
            print("ok", len(d))
        ' "$0"
        """, path
    ).trimmingCharacters(in: .whitespacesAndNewlines)
}

/// A fresh temporary directory.
func gzipTempDirectory() -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("daq-gzip-\(UUID().uuidString)").path
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Lines of a recording, varied enough that deflate makes several blocks of them.
func sampleLines(_ count: Int) -> [String] {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    return (0..<count).map { i in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return "\(Double(i) / 100),\(Int(state >> 40) % 100_000),\(Int(state >> 20) % 1000),1.\(Int(state >> 50))"
    }
}

/// Writes `lines` (each ending in a newline) to `name` in `dir`, gzips it with `maker` and
/// returns the path of the `.gz` and its bytes.
func gzipped(_ lines: [String], maker: GzipMaker, in dir: String = gzipTempDirectory()) throws -> (
    path: String, bytes: [UInt8]
) {
    let plain = dir + "/walk.csv"
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: plain))
    let gz = dir + "/walk.csv.gz"
    try maker.make(plain, gz)
    return (gz, [UInt8](try Data(contentsOf: URL(fileURLWithPath: gz))))
}

/// Reads lines until the end or an error; returns the lines and the error.
func readLines(_ path: String) throws -> (lines: [String], error: (any Error)?) {
    let reader = try LineReader(path: path)
    var lines: [String] = []
    do {
        while try reader.nextLine({ lines.append(String(decoding: $0, as: UTF8.self)) }) == .line {}
    } catch {
        return (lines, error)
    }
    return (lines, nil)
}

/// Writes `bytes` to a new file in `dir` and returns its path.
func writeFile(_ bytes: [UInt8], _ name: String, in dir: String = gzipTempDirectory()) throws -> String {
    let path = dir + "/" + name
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
}
