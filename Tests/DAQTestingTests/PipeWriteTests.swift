import DAQTesting
import Foundation
import Testing

/// A test that writes to a child which has already gone must fail, not end the test process
/// (and every test under way in it) with SIGPIPE.
@Suite("a write to a pipe with no reader", .timeLimit(.minutes(20)))
struct PipeWriteTests {
    @Test func isAnErrorAndTheProcessGoesOn() throws {
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        #expect(throws: (any Error).self) {
            try pipe.fileHandleForWriting.writeWithoutSIGPIPE(Data("lost\n".utf8))
        }
        // The SIGPIPE the write raised was taken: none is left pending for this thread.
        var pending = sigset_t()
        sigpending(&pending)
        #expect(sigismember(&pending, SIGPIPE) == 0)
        try pipe.fileHandleForWriting.close()
    }

    @Test func aReaderGetsEveryByte() throws {
        let pipe = Pipe()
        try pipe.fileHandleForWriting.writeWithoutSIGPIPE(Data("kept\n".utf8))
        try pipe.fileHandleForWriting.close()
        #expect(pipe.fileHandleForReading.readDataToEndOfFile() == Data("kept\n".utf8))
    }
}
