/// A stream as one pass over an XDF file found it: its header, where its Samples chunks are,
/// its clock offsets and its footer.
public struct XDFStreamRecord: Sendable {
    /// What its StreamHeader says.
    public var info: XDFStreamInfo
    /// Its whole Samples chunks, in file order.
    var chunks: [XDFChunkSpan] = []
    /// Samples in those chunks.
    public var sampleCount = 0
    /// ClockOffset chunks: when each was measured, on the recorder's clock…
    public var clockTimes: [Double] = []
    /// …and the offset to add to the stream's time stamps to put them on that clock.
    public var clockValues: [Double] = []
    /// The StreamFooter's `<info>`; `nil` for a file LabRecorder did not finish.
    public var footer: XDFElement?
    /// The first and last time stamp as recorded (before synchronisation).
    public var firstTimestamp: Double?
    public var lastTimestamp: Double?
    /// The number of its StreamHeader chunk.
    public var headerChunk: Int

    init(info: XDFStreamInfo, headerChunk: Int) {
        self.info = info
        self.headerChunk = headerChunk
    }

    /// The footer's `sample_count`, when it has one.
    public var footerSampleCount: Int? { footer?.value("sample_count").flatMap { Int($0) } }
}

/// Where a Samples chunk's content lies in the file.
struct XDFChunkSpan: Sendable {
    /// Its number in the file, from 1.
    var number: Int
    /// The offset of its first byte (NumLengthBytes).
    var start: Int64
    /// The offset of its content after the stream id, and that content's length.
    var content: Int64
    var length: Int
    var samples: Int
}

/// What one pass over an XDF file found: the file header, every stream in the order its header
/// came, the damage met, and where the last whole chunk ends.
public struct XDFIndex: Sendable {
    /// The file.
    public var path: String
    /// The FileHeader's `<info>`.
    public var fileHeader: XDFElement?
    /// Every stream, in the order of its StreamHeader.
    public var streams: [XDFStreamRecord] = []
    /// Each place the file is not XDF, in order; reading went on after a Boundary chunk when one followed.
    public var damage: [XDFDamage] = []
    /// Chunks read.
    public var chunkCount = 0
    /// Chunks of a tag the specification does not define, skipped as pyxdf skips them.
    public var unknownChunks = 0
    /// The content offset just past the last whole chunk: what a repair keeps.
    public var wholeEnd: Int64 = 4
    /// The content's length.
    public var contentLength: Int64 = 0
    /// Whether the file is gzip-compressed.
    public var isCompressed = false

    /// The stream with id `id`.
    func stream(id: UInt32) -> Int? { streams.firstIndex { $0.info.id == id } }

    /// The streams without a StreamFooter: a recording LabRecorder (or daq) did not finish.
    public var streamsWithoutFooter: [XDFStreamRecord] { streams.filter { $0.footer == nil } }

    /// Reads the file once.
    /// - Parameter samples: `true` checks every Samples chunk sample by sample (and finds its
    ///   first and last time stamp); `false` only reads past them: enough to describe the file.
    /// - Throws: ``XDFFileError`` when the file cannot be read or does not begin with `XDF:`.
    public init(path: String, samples: Bool = true) throws {
        self.path = path
        let input = try XDFInput(path: path)
        isCompressed = input.isCompressed
        guard let magic = try input.take(4), magic.elementsEqual("XDF:".utf8) else {
            throw XDFFileError(path: path, problem: "not an XDF file: it does not begin with 'XDF:'")
        }
        var scan = XDFScan(index: self, input: input, checkSamples: samples)
        try scan.run()
        self = scan.index
        contentLength = input.position
    }
}
