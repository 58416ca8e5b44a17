import DAQCore
import Foundation
import Testing

/// A CSV whose header grows is a valid CSV at every moment: before it is finished, the file and
/// each part carry their own header; finishing merges them under the final one.
@Suite(.timeLimit(.minutes(20))) struct GrowingCSVFileTests {
    @Test func partsAreValidUntilFinishedThenMergedUnderTheFinalHeader() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-grow-\(UUID().uuidString)").path
        let path = dir + "/log.csv"
        let file = try GrowingCSVFile(path: path)
        try file.output.write("a,b\n1,2\n".utf8)
        file.wroteHeader(width: 2)
        let part = try file.startPart()
        #expect(part == dir + "/log.part1.csv")
        try file.output.write("a,b,c\n3,4,\"x\ny,z\"\n".utf8)
        file.wroteHeader(width: 3)
        try file.output.flush()
        // As a crash would leave them: two complete files.
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "a,b\n1,2\n")
        #expect(try String(contentsOfFile: part, encoding: .utf8) == "a,b,c\n3,4,\"x\ny,z\"\n")
        try file.finish(header: Array("a,b,c\n".utf8), width: 3)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "a,b,c\n1,2,\n3,4,\"x\ny,z\"\n")
        #expect(!FileManager.default.fileExists(atPath: part) && !FileManager.default.fileExists(atPath: path + ".tmp"))
        #expect(!file.keepsParts)
    }

    @Test func aFileAppendedToKeepsItsPartsRatherThanRewriteAnEarlierRun() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-grow-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/log.csv"
        try "x,y\n0,0\n".write(toFile: path, atomically: true, encoding: .utf8)
        let file = try GrowingCSVFile(path: path, append: true)
        try file.output.write("1,1\n".utf8)
        try file.startPart()
        try file.output.write("x,y,z\n2,2,2\n".utf8)
        file.wroteHeader(width: 3)
        try file.finish(header: Array("x,y,z\n".utf8), width: 3)
        #expect(file.keepsParts)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "x,y\n0,0\n1,1\n")
        #expect(try String(contentsOfFile: dir + "/log.part1.csv", encoding: .utf8) == "x,y,z\n2,2,2\n")
    }
}
