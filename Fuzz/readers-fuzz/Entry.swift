// Entry point of the readers fuzz target. Built for fuzzing (-DFUZZING, -sanitize=fuzzer) it
// hands control to libFuzzer's driver for the target READERS_FUZZ_TARGET names (gzip, csv,
// cwa, gt3x, geneactiv, gs1, json, yaml, control); built normally it replays the files named on the command line
// through the same `fuzzOne`, to reproduce a crash the fuzzer found. `--seeds DIR` writes a
// small valid input of every target to DIR, for the corpus.
import Foundation

#if FUZZING
    @_silgen_name("LLVMFuzzerRunDriver")
    func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt

    /// The target of this process, read once: libFuzzer calls the callback millions of times.
    nonisolated(unsafe) var fuzzTarget = FuzzTarget.gzip

    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        fuzzOne(fuzzTarget, UnsafeRawBufferPointer(start: data, count: size))
        return 0
    }
#endif

@main
enum ReadersFuzz {
    static func main() {
        let arguments = CommandLine.arguments
        if arguments.count == 3 && arguments[1] == "--seeds" {
            do { try writeSeeds(to: arguments[2]) } catch {
                FileHandle.standardError.write(Data("readers-fuzz: cannot write seeds: \(error)\n".utf8))
                exit(1)
            }
            return
        }
        let name = ProcessInfo.processInfo.environment["READERS_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            FileHandle.standardError.write(Data("readers-fuzz: set READERS_FUZZ_TARGET to one of \(names)\n".utf8))
            exit(2)
        }
        #if FUZZING
            fuzzTarget = target
            var argc = CommandLine.argc
            var argv = CommandLine.unsafeArgv
            exit(runFuzzerDriver(&argc, &argv) { data, size in fuzzerTestOneInput(data, size) })
        #else
            for path in arguments.dropFirst() {
                guard let data = FileManager.default.contents(atPath: path) else {
                    FileHandle.standardError.write(Data("readers-fuzz: cannot read \(path)\n".utf8))
                    exit(1)
                }
                data.withUnsafeBytes { fuzzOne(target, $0) }
                print("\(path): ok")
            }
        #endif
    }
}
