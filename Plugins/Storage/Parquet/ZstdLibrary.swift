import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// libzstd, loaded with `dlopen` the first time a file is written with `zstd`.
///
/// Debian ships `libzstd1` (the library) on every system but its headers only in `libzstd-dev`,
/// so DAQKit declares the five functions it calls instead of building against `zstd.h`: `daq`
/// then builds on a fresh machine, and only a pipeline that asks for zstd needs the library.
///
/// # Thread safety
/// Immutable once loaded: the function pointers never change, and libzstd's functions are
/// thread-safe on distinct contexts (each writer owns its own).
final class ZstdLibrary: @unchecked Sendable {
    typealias CreateContext = @convention(c) () -> OpaquePointer?
    typealias FreeContext = @convention(c) (OpaquePointer?) -> Int
    typealias CompressBound = @convention(c) (Int) -> Int
    typealias Compress =
        @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, Int, UnsafeRawPointer?, Int, Int32) -> Int
    typealias IsError = @convention(c) (Int) -> UInt32

    let createContext: CreateContext
    let freeContext: FreeContext
    let compressBound: CompressBound
    /// `ZSTD_compressCCtx`: one frame from one buffer, reusing the context's memory.
    let compress: Compress
    let isError: IsError

    private init(handle: UnsafeMutableRawPointer) throws(ZstdUnavailable) {
        func load<F>(_ symbol: String) throws(ZstdUnavailable) -> F {
            guard let address = dlsym(handle, symbol) else { throw ZstdUnavailable(reason: "no \(symbol)") }
            return unsafeBitCast(address, to: F.self)
        }
        createContext = try load("ZSTD_createCCtx")
        freeContext = try load("ZSTD_freeCCtx")
        compressBound = try load("ZSTD_compressBound")
        compress = try load("ZSTD_compressCCtx")
        isError = try load("ZSTD_isError")
    }

    private static let loaded = Mutex<Result<ZstdLibrary, ZstdUnavailable>?>(nil)

    /// The library, loaded on first use; a failure is remembered.
    /// - Throws: ``ZstdUnavailable`` saying what was tried.
    static func shared() throws(ZstdUnavailable) -> ZstdLibrary {
        let result = loaded.withLock { cached in
            if let cached { return cached }
            let result = load(names: ["libzstd.so.1", "libzstd.so"])
            cached = result
            return result
        }
        return try result.get()
    }

    /// Loads the first of `names` that `dlopen` finds and that has every function.
    static func load(names: [String]) -> Result<ZstdLibrary, ZstdUnavailable> {
        var tried: [String] = []
        for name in names {
            guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
                tried.append("\(name): \(dlerror().map { String(cString: $0) } ?? "not loadable")")
                continue
            }
            do {
                return .success(try ZstdLibrary(handle: handle))
            } catch {
                dlclose(handle)
                tried.append("\(name): \(error.reason)")
            }
        }
        return .failure(ZstdUnavailable(reason: tried.joined(separator: "; ")))
    }
}

/// libzstd could not be loaded.
struct ZstdUnavailable: Error, CustomStringConvertible {
    var reason: String
    var description: String {
        "zstd compression needs libzstd.so.1 (Debian/Ubuntu: apt-get install libzstd1), which could not be loaded: "
            + reason + "; or choose compression: gzip or none"
    }
}
