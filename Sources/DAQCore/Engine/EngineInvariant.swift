import Foundation

/// A broken promise inside the engine: a state machine got an input its state does not allow.
/// That is a bug, never a user's mistake, so a debug build stops at once, where a debugger and
/// the test that found it show the cause; a release build says so on standard error and goes
/// on with the state unchanged, because stopping a field recording for a bookkeeping bug would
/// lose data the bug did not touch.
enum EngineInvariant {
    static func violated(_ message: String, file: StaticString = #fileID, line: UInt = #line) {
        assertionFailure("daq engine: illegal transition: \(message)", file: file, line: line)
        FileHandle.standardError.write(Data("daq engine: illegal transition: \(message)\n".utf8))
    }
}
