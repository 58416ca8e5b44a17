// Entry point of the fuzz target. Built for fuzzing (-DFUZZING, -sanitize=fuzzer) it hands
// control to libFuzzer's driver; SwiftPM renames an executable's `main`, so libFuzzer's own
// `main` is not the one that runs. Built normally it replays the files named on the command
// line through the same `fuzzOne`, to reproduce a crash the fuzzer found.
import Foundation

#if FUZZING
    @_silgen_name("LLVMFuzzerRunDriver")
    func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt

    /// libFuzzer's runtime links its own `main`, which names this callback.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        fuzzOne(UnsafeRawBufferPointer(start: data, count: size))
        return 0
    }
#endif

@main
enum BLEFuzz {
    static func main() {
        #if FUZZING
            var argc = CommandLine.argc
            var argv = CommandLine.unsafeArgv
            exit(runFuzzerDriver(&argc, &argv) { data, size in fuzzerTestOneInput(data, size) })
        #else
            for path in CommandLine.arguments.dropFirst() {
                guard let data = FileManager.default.contents(atPath: path) else {
                    FileHandle.standardError.write(Data("ble-fuzz: cannot read \(path)\n".utf8))
                    exit(1)
                }
                data.withUnsafeBytes { fuzzOne($0) }
                print("\(path): ok")
            }
        #endif
    }
}
