import CZlib
import Foundation

/// An 8-bit RGB or RGBA PNG decoded to pixels: enough to check that a screenshot or a rendered
/// plot shows something where a chart should be, and nothing where it should not.
public struct PNGImage: Sendable {
    public let width: Int
    public let height: Int
    /// Bytes per pixel: 3 (RGB) or 4 (RGBA).
    public let channels: Int
    public let pixels: [UInt8]

    /// Why a PNG could not be read here.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// Decodes `data`.
    /// - Throws: ``Failure`` for anything but an 8-bit RGB/RGBA PNG without interlacing.
    public init(_ data: Data) throws {
        let bytes = [UInt8](data)
        guard bytes.count > 8, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else {
            throw Failure("not a PNG")
        }
        func be32(_ i: Int) -> Int {
            Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
        }
        var at = 8
        var width = 0
        var height = 0
        var channels = 0
        var compressed: [UInt8] = []
        while at + 8 <= bytes.count {
            let length = be32(at)
            let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
            let body = Array(bytes[(at + 8)..<(at + 8 + length)])
            switch type {
            case "IHDR":
                width = be32(at + 8)
                height = be32(at + 12)
                guard body[8] == 8, [2, 6].contains(body[9]), body[12] == 0 else {
                    throw Failure("only 8-bit RGB/RGBA PNGs without interlacing are read here")
                }
                channels = body[9] == 6 ? 4 : 3
            case "IDAT": compressed += body
            default: break
            }
            at += 12 + length
        }
        let stride = width * channels
        var raw = [UInt8](repeating: 0, count: height * (stride + 1))
        var size = uLongf(raw.count)
        let status = raw.withUnsafeMutableBufferPointer { out in
            compressed.withUnsafeBufferPointer { uncompress(out.baseAddress!, &size, $0.baseAddress!, uLong($0.count)) }
        }
        guard status == Z_OK, Int(size) == raw.count else { throw Failure("PNG data: zlib status \(status)") }
        var pixels = [UInt8](repeating: 0, count: height * stride)
        for y in 0..<height {
            let filter = raw[y * (stride + 1)]
            for x in 0..<stride {
                let v = raw[y * (stride + 1) + 1 + x]
                let a = x >= channels ? Int(pixels[y * stride + x - channels]) : 0
                let b = y > 0 ? Int(pixels[(y - 1) * stride + x]) : 0
                let c = x >= channels && y > 0 ? Int(pixels[(y - 1) * stride + x - channels]) : 0
                let predicted: Int
                switch filter {
                case 0: predicted = 0
                case 1: predicted = a
                case 2: predicted = b
                case 3: predicted = (a + b) / 2
                case 4:
                    let p = a + b - c
                    let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
                    predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                default: throw Failure("PNG filter \(filter)")
                }
                pixels[y * stride + x] = UInt8(truncatingIfNeeded: Int(v) + predicted)
            }
        }
        self.width = width
        self.height = height
        self.channels = channels
        self.pixels = pixels
    }

    /// The distinct RGB colours inside a rectangle, clipped to the image.
    public func colours(x: Int, y: Int, width w: Int, height h: Int) -> Set<UInt32> {
        var seen: Set<UInt32> = []
        for row in max(0, y)..<min(height, y + h) {
            for col in max(0, x)..<min(width, x + w) {
                let i = (row * width + col) * channels
                seen.insert(UInt32(pixels[i]) << 16 | UInt32(pixels[i + 1]) << 8 | UInt32(pixels[i + 2]))
            }
        }
        return seen
    }
}

extension PNGImage {
    /// The pixel at `x`, `y` as red, green and blue.
    public func rgb(x: Int, y: Int) -> (UInt8, UInt8, UInt8) {
        let i = (y * width + x) * channels
        return (pixels[i], pixels[i + 1], pixels[i + 2])
    }
}
