#if canImport(Glibc)
    import Glibc
#endif

/// The liblsl functions DAQKit calls, with the C signatures of `include/lsl_c.h`: handles
/// (`lsl_streaminfo`, `lsl_inlet`, `lsl_outlet`, `lsl_continuous_resolver`, `lsl_xml_ptr`) are
/// opaque pointers, `unsigned long` is `UInt`, an `lsl_channel_format_t` is an `Int32`.
///
/// None of these waits when called as the plugins call them: every timeout passed is 0.0, and
/// what cannot be called without waiting (destroying an inlet or outlet joins liblsl's threads)
/// is called off the stage's queue.
struct LSLFunctions: Sendable {
    typealias Handle = OpaquePointer
    typealias Text = UnsafePointer<CChar>
    typealias ErrorCode = UnsafeMutablePointer<Int32>

    let libraryVersion: @convention(c) () -> Int32
    let localClock: @convention(c) () -> Double
    let destroyString: @convention(c) (UnsafeMutablePointer<CChar>?) -> Void

    // Stream info.
    let createStreamInfo: @convention(c) (Text, Text, Int32, Double, Int32, Text) -> Handle?
    let destroyStreamInfo: @convention(c) (Handle?) -> Void
    let name: @convention(c) (Handle?) -> Text?
    let type: @convention(c) (Handle?) -> Text?
    let sourceID: @convention(c) (Handle?) -> Text?
    let hostname: @convention(c) (Handle?) -> Text?
    let uid: @convention(c) (Handle?) -> Text?
    let channelCount: @convention(c) (Handle?) -> Int32
    let nominalRate: @convention(c) (Handle?) -> Double
    let channelFormat: @convention(c) (Handle?) -> Int32
    let desc: @convention(c) (Handle?) -> Handle?

    // The XML of a stream's description.
    let child: @convention(c) (Handle?, Text) -> Handle?
    let nextSiblingNamed: @convention(c) (Handle?, Text) -> Handle?
    let childValueNamed: @convention(c) (Handle?, Text) -> Text?
    let isEmpty: @convention(c) (Handle?) -> Int32
    let appendChild: @convention(c) (Handle?, Text) -> Handle?
    let appendChildValue: @convention(c) (Handle?, Text, Text) -> Handle?

    // Resolving.
    let createResolver: @convention(c) (Double) -> Handle?
    let createResolverByPredicate: @convention(c) (Text, Double) -> Handle?
    let resolverResults: @convention(c) (Handle?, UnsafeMutablePointer<Handle?>, UInt32) -> Int32
    let destroyResolver: @convention(c) (Handle?) -> Void

    // Inlets.
    let createInlet: @convention(c) (Handle?, Int32, Int32, Int32) -> Handle?
    let destroyInlet: @convention(c) (Handle?) -> Void
    let fullInfo: @convention(c) (Handle?, Double, ErrorCode) -> Handle?
    let openStream: @convention(c) (Handle?, Double, ErrorCode) -> Void
    let timeCorrection: @convention(c) (Handle?, Double, ErrorCode) -> Double
    let wasClockReset: @convention(c) (Handle?) -> UInt32
    let pullChunkDouble:
        @convention(c) (
            Handle?, UnsafeMutablePointer<Double>, UnsafeMutablePointer<Double>, UInt, UInt, Double, ErrorCode
        )
            -> UInt
    let pullChunkInt64:
        @convention(c) (
            Handle?, UnsafeMutablePointer<Int64>, UnsafeMutablePointer<Double>, UInt, UInt, Double, ErrorCode
        )
            -> UInt
    let pullChunkString:
        @convention(c) (
            Handle?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, UnsafeMutablePointer<Double>, UInt, UInt,
            Double, ErrorCode
        ) -> UInt

    // Outlets.
    let createOutlet: @convention(c) (Handle?, Int32, Int32) -> Handle?
    let destroyOutlet: @convention(c) (Handle?) -> Void
    let haveConsumers: @convention(c) (Handle?) -> Int32
    let pushChunkDouble: @convention(c) (Handle?, UnsafePointer<Double>, UInt, UnsafePointer<Double>, Int32) -> Int32
    let pushChunkInt64: @convention(c) (Handle?, UnsafePointer<Int64>, UInt, UnsafePointer<Double>, Int32) -> Int32
    let pushChunkString:
        @convention(c) (Handle?, UnsafePointer<UnsafePointer<CChar>?>, UInt, UnsafePointer<Double>, Int32) -> Int32

    /// Resolves every function from `handle`.
    /// - Throws: ``MissingSymbol`` naming the first function the library lacks.
    init(handle: UnsafeMutableRawPointer) throws(MissingSymbol) {
        func load<F>(_ symbol: String) throws(MissingSymbol) -> F {
            guard let address = dlsym(handle, symbol) else { throw MissingSymbol(name: symbol) }
            return unsafeBitCast(address, to: F.self)
        }
        libraryVersion = try load("lsl_library_version")
        localClock = try load("lsl_local_clock")
        destroyString = try load("lsl_destroy_string")
        createStreamInfo = try load("lsl_create_streaminfo")
        destroyStreamInfo = try load("lsl_destroy_streaminfo")
        name = try load("lsl_get_name")
        type = try load("lsl_get_type")
        sourceID = try load("lsl_get_source_id")
        hostname = try load("lsl_get_hostname")
        uid = try load("lsl_get_uid")
        channelCount = try load("lsl_get_channel_count")
        nominalRate = try load("lsl_get_nominal_srate")
        channelFormat = try load("lsl_get_channel_format")
        desc = try load("lsl_get_desc")
        child = try load("lsl_child")
        nextSiblingNamed = try load("lsl_next_sibling_n")
        childValueNamed = try load("lsl_child_value_n")
        isEmpty = try load("lsl_empty")
        appendChild = try load("lsl_append_child")
        appendChildValue = try load("lsl_append_child_value")
        createResolver = try load("lsl_create_continuous_resolver")
        createResolverByPredicate = try load("lsl_create_continuous_resolver_bypred")
        resolverResults = try load("lsl_resolver_results")
        destroyResolver = try load("lsl_destroy_continuous_resolver")
        createInlet = try load("lsl_create_inlet")
        destroyInlet = try load("lsl_destroy_inlet")
        fullInfo = try load("lsl_get_fullinfo")
        openStream = try load("lsl_open_stream")
        timeCorrection = try load("lsl_time_correction")
        wasClockReset = try load("lsl_was_clock_reset")
        pullChunkDouble = try load("lsl_pull_chunk_d")
        pullChunkInt64 = try load("lsl_pull_chunk_l")
        pullChunkString = try load("lsl_pull_chunk_str")
        createOutlet = try load("lsl_create_outlet")
        destroyOutlet = try load("lsl_destroy_outlet")
        haveConsumers = try load("lsl_have_consumers")
        pushChunkDouble = try load("lsl_push_chunk_dtnp")
        pushChunkInt64 = try load("lsl_push_chunk_ltnp")
        pushChunkString = try load("lsl_push_chunk_strtnp")
    }

    /// Text liblsl owns (a name, a label), copied; `nil` for a null pointer.
    static func text(_ pointer: Text?) -> String? {
        pointer.map { String(cString: $0) }
    }
}

/// A function the library does not export: an old or foreign liblsl.
struct MissingSymbol: Error, CustomStringConvertible {
    var name: String
    var description: String { "it lacks \(name) (liblsl 1.14 or later is needed)" }
}

/// liblsl's error codes (`lsl_error_code_t`).
enum LSLErrorCode: Int32 {
    case none = 0
    case timeout = -1
    case lost = -2
    case argument = -3
    case `internal` = -4
}

/// liblsl's channel formats (`lsl_channel_format_t`).
enum LSLChannelFormat: Int32, CaseIterable, Sendable {
    case float32 = 1
    case double64 = 2
    case string = 3
    case int32 = 4
    case int16 = 5
    case int8 = 6
    case int64 = 7

    /// The name LSL's XML and XDF headers use (`float32`, `double64`, …).
    var name: String {
        switch self {
        case .float32: return "float32"
        case .double64: return "double64"
        case .string: return "string"
        case .int32: return "int32"
        case .int16: return "int16"
        case .int8: return "int8"
        case .int64: return "int64"
        }
    }

    /// Whether values are whole numbers, pulled and pushed as `Int64`.
    var isInteger: Bool { self == .int8 || self == .int16 || self == .int32 || self == .int64 }
}
