import DAQCore
import Foundation
import Testing

/// Where a test cuts a gzip file.
enum GzipCut: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case afterMagic, insideFixedHeader, insideDeflateData, beforeTrailer, insideTrailer, lastByte

    var testDescription: String { rawValue }

    func offset(size: Int) -> Int {
        switch self {
        case .afterMagic: return 2
        case .insideFixedHeader: return 5
        case .insideDeflateData: return size / 2
        case .beforeTrailer: return size - 8
        case .insideTrailer: return size - 5
        case .lastByte: return size - 1
        }
    }

    /// Where the message says the data ends.
    var place: String {
        switch self {
        case .afterMagic, .insideFixedHeader: return "inside the header of the first gzip member, in its fixed 10 bytes"
        case .insideDeflateData: return "inside the compressed data of the first gzip member"
        case .beforeTrailer, .insideTrailer, .lastByte: return "inside the 8-byte trailer of the first gzip member"
        }
    }
}

/// Compressed input is verified: a gzip file cut short or damaged is an error naming the file,
/// the compressed offset and the last complete line, never a short file read as whole; files
/// made by gzip(1) and by Python, with several members or zero padding, read whole.
@Suite(.timeLimit(.minutes(20))) struct GzipInputTests {
    static let lines = sampleLines(10_000)

    @Test(arguments: GzipMaker.allCases)
    func aWholeFileReadsEveryLine(maker: GzipMaker) throws {
        let (path, _) = try gzipped(Self.lines, maker: maker)
        let (lines, error) = try readLines(path)
        #expect(error == nil)
        #expect(lines == Self.lines)
        #expect(try pythonVerdict(path).hasPrefix("ok "))
    }

    @Test(arguments: GzipMaker.allCases, GzipCut.allCases)
    func aCutFileEndsInAnErrorAfterItsLastCompleteLine(maker: GzipMaker, cut: GzipCut) throws {
        let (whole, bytes) = try gzipped(Self.lines, maker: maker)
        let at = cut.offset(size: bytes.count)
        let path = try writeFile(Array(bytes[..<at]), "cut.csv.gz", in: (whole as NSString).deletingLastPathComponent)
        #expect(try pythonVerdict(path) == "truncated", "Python's gzip agrees the file is cut short")

        let (lines, thrown) = try readLines(path)
        let error = try #require(thrown as? CompressedInputError, "\(String(describing: thrown))")
        #expect(error.gzip.kind == .truncated)
        #expect(error.gzip.offset == Int64(at))
        #expect(error.lastCompleteLine == lines.count)
        // Only whole lines, never the cut one after them.
        #expect(lines == Array(Self.lines.prefix(lines.count)))
        let last =
            lines.isEmpty
            ? "no line before it is complete"
            : "line \(lines.count) is the last complete line, nothing after it is read"
        var place = cut.place
        if place.hasSuffix("trailer of the first gzip member") {
            place += " (\(at - (bytes.count - 8)) of its bytes are there)"
        }
        #expect(
            "\(error)"
                == "\(path): the gzip data ends early at compressed byte \(at), \(place) (the file is cut short); \(last)"
        )
        switch cut {
        case .afterMagic, .insideFixedHeader: #expect(lines.isEmpty)
        case .insideDeflateData: #expect(lines.count > 1000 && lines.count < Self.lines.count, "\(lines.count)")
        case .beforeTrailer, .insideTrailer, .lastByte:
            // All of the content is there, but unverified: every line out, and still an error.
            #expect(lines.count == Self.lines.count)
        }
    }

    @Test func aFileCutInsideTheNameOfItsHeaderSaysSo() throws {
        let (whole, bytes) = try gzipped(Self.lines, maker: .gzipTool)
        #expect(bytes[3] & 0x08 != 0, "gzip(1) stores the file name")
        let path = try writeFile(Array(bytes[..<14]), "cut.gz", in: (whole as NSString).deletingLastPathComponent)
        let (_, thrown) = try readLines(path)
        let error = try #require(thrown as? CompressedInputError)
        #expect(
            "\(error.gzip)"
                == "the gzip data ends early at compressed byte 14, inside the header of the first gzip member, in its file name (the file is cut short)"
        )
    }

    @Test(arguments: GzipMaker.allCases)
    func aFlippedByteInsideTheDataIsAnErrorWithItsOffset(maker: GzipMaker) throws {
        let (whole, bytes) = try gzipped(Self.lines, maker: maker)
        var damaged = bytes
        let at = bytes.count / 3
        damaged[at] ^= 0xFF
        let path = try writeFile(damaged, "flipped.gz", in: (whole as NSString).deletingLastPathComponent)
        #expect(try pythonVerdict(path) == "corrupt")
        let (lines, thrown) = try readLines(path)
        let error = try #require(thrown as? CompressedInputError, "\(String(describing: thrown))")
        #expect(error.gzip.kind == .corrupt)
        // zlib finds bad codes a few bytes on; a wrong but valid code is found by the CRC.
        #expect(error.gzip.offset >= Int64(at) && error.gzip.offset <= Int64(bytes.count - 8), "\(error)")
        #expect(
            "\(error)".hasPrefix("\(path): corrupt gzip data at compressed byte \(error.gzip.offset): "), "\(error)")
        #expect(error.lastCompleteLine == lines.count)
    }

    @Test func aFlippedCRCIsFoundAfterTheContent() throws {
        let (whole, bytes) = try gzipped(Self.lines, maker: .gzipTool)
        var damaged = bytes
        damaged[bytes.count - 8] ^= 0x01
        let path = try writeFile(damaged, "crc.gz", in: (whole as NSString).deletingLastPathComponent)
        #expect(try pythonVerdict(path) == "corrupt")
        let (lines, thrown) = try readLines(path)
        let error = try #require(thrown as? CompressedInputError)
        #expect(error.gzip.offset == Int64(bytes.count - 8))
        #expect("\(error.gzip)".contains("the content's CRC-32 is"), "\(error)")
        #expect(lines == Self.lines)
    }

    @Test func aWrongLengthInTheTrailerIsAnError() throws {
        let (whole, bytes) = try gzipped(Self.lines, maker: .pythonCompress)
        var damaged = bytes
        damaged[bytes.count - 2] ^= 0x01
        let path = try writeFile(damaged, "isize.gz", in: (whole as NSString).deletingLastPathComponent)
        #expect(try pythonVerdict(path) == "corrupt")
        let error = try #require(try readLines(path).error as? CompressedInputError)
        #expect(error.gzip.offset == Int64(bytes.count - 4))
        #expect("\(error.gzip)".contains("the content is"), "\(error)")
    }

    @Test func membersOneAfterAnotherAndZeroPaddingReadWhole() throws {
        let first = try gzipped(Array(Self.lines[..<4000]), maker: .gzipTool).bytes
        let second = try gzipped(Array(Self.lines[4000...]), maker: .pythonCompress).bytes
        let path = try writeFile(first + second + [UInt8](repeating: 0, count: 512), "members.gz")
        #expect(try pythonVerdict(path).hasPrefix("ok "))
        let (lines, error) = try readLines(path)
        #expect(error == nil)
        #expect(lines == Self.lines)
    }

    @Test func aSecondMemberCutShortIsNamed() throws {
        let first = try gzipped(Array(Self.lines[..<4000]), maker: .gzipTool).bytes
        let second = try gzipped(Array(Self.lines[4000...]), maker: .pythonOpen).bytes
        let path = try writeFile(first + second.prefix(second.count / 2), "members.gz")
        #expect(try pythonVerdict(path) == "truncated")
        let (lines, thrown) = try readLines(path)
        let error = try #require(thrown as? CompressedInputError)
        #expect(error.gzip.offset == Int64(first.count + second.count / 2))
        #expect("\(error.gzip)".contains("inside the compressed data of gzip member 2"), "\(error)")
        #expect(lines.count > 4000 && lines == Array(Self.lines.prefix(lines.count)))
    }

    @Test func otherBytesAfterTheLastMemberAreAnError() throws {
        let bytes = try gzipped(Self.lines, maker: .gzipTool).bytes
        let path = try writeFile(bytes + Array("trailing".utf8), "garbage.gz")
        #expect(try pythonVerdict(path) == "corrupt")
        let (lines, thrown) = try readLines(path)
        let error = try #require(thrown as? CompressedInputError)
        #expect(error.gzip.offset == Int64(bytes.count))
        #expect("\(error.gzip)".contains("byte 0x74 follows the end of the gzip data"), "\(error)")
        #expect(lines == Self.lines)
    }

    @Test(arguments: GzipMaker.allCases)
    func theDecoderGivesTheSameContentFedOneByteAtATime(maker: GzipMaker) throws {
        let (_, bytes) = try gzipped(Array(Self.lines.prefix(3000)), maker: maker)
        let expected = Array((Self.lines.prefix(3000).joined(separator: "\n") + "\n").utf8)
        let decoder = GzipDecoder()
        var out: [UInt8] = []
        var room = [UInt8](repeating: 0, count: 7)
        for i in bytes.indices {
            var fed = 0
            while fed == 0 {
                let (used, made) = try bytes.withUnsafeBytes { input in
                    try room.withUnsafeMutableBytes {
                        try decoder.decode(UnsafeRawBufferPointer(rebasing: input[i..<(i + 1)]), into: $0)
                    }
                }
                out += room[..<made]
                fed = used
                if used == 0 && made == 0 { break }
            }
        }
        while true {
            let made = try room.withUnsafeMutableBytes {
                try decoder.decode(UnsafeRawBufferPointer(start: nil, count: 0), into: $0).produced
            }
            if made == 0 { break }
            out += room[..<made]
        }
        try decoder.finish()
        #expect(out == expected)
    }

    @Test func theByteReaderReportsACutFileWithItsContentOffset() throws {
        let (whole, bytes) = try gzipped(Self.lines, maker: .pythonOpen)
        let at = bytes.count / 2
        let path = try writeFile(Array(bytes[..<at]), "cut.bin.gz", in: (whole as NSString).deletingLastPathComponent)
        let reader = try ByteReader(path: path)
        var content: [UInt8] = []
        var chunk: [UInt8] = []
        let thrown: (any Error)? = {
            do {
                while true {
                    let n = try reader.read(into: &chunk, count: 4096)
                    if n == 0 { return nil }
                    content += chunk[..<n]
                }
            } catch { return error }
        }()
        let error = try #require(thrown as? CompressedInputError)
        #expect(error.lastCompleteLine == nil)
        #expect(error.gzip.offset == Int64(at))
        let expected = Array((Self.lines.joined(separator: "\n") + "\n").utf8)
        #expect(content.count > 0 && content == Array(expected.prefix(content.count)))
        #expect("\(error)".hasPrefix("\(path): the gzip data ends early at compressed byte \(at)"), "\(error)")
    }
}
