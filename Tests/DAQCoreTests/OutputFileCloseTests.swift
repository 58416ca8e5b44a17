import DAQCore
import Foundation
import Testing

/// A sink's file closed twice (a stop and a cancel, a failure path and its cleanup) must not
/// close whatever the process opened since on the same descriptor number.
@Suite("OutputFile closed twice", .timeLimit(.minutes(20)))
struct OutputFileCloseTests {
    static func scratch() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-outputfile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.path
    }

    @Test func aSecondCloseLeavesTheNextFileOnItsDescriptorAlone() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let first = try OutputFile(path: "\(dir)/first.txt")
        try first.write("one\n")
        try first.close()
        // The lowest free descriptor: the one `first` gave back.
        let second = try OutputFile(path: "\(dir)/second.txt")
        try first.close()
        try second.write("two\n")
        try second.close()
        #expect(try String(contentsOfFile: "\(dir)/first.txt", encoding: .utf8) == "one\n")
        #expect(try String(contentsOfFile: "\(dir)/second.txt", encoding: .utf8) == "two\n")
    }

    @Test func bytesWrittenAfterTheCloseAreAnErrorNotLostSilently() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = try OutputFile(path: "\(dir)/late.txt")
        try file.close()
        try file.write("late\n")
        #expect(throws: OutputFileError.self) { try file.flush() }
        #expect(file.discardBuffered() == 5)
        try file.close()
    }
}
