/// The check character pair of GS1's alphanumeric keys (GMN, AI 8013; MUDI, AI 8014), as the
/// General Specifications define it: each character's position in CSET 82 weighted by the
/// primes 2, 3, 5, … from the right, summed modulo 1021; the sum's two 5-bit halves are the
/// two check characters, taken from CSET 32.
public enum CheckCharacterPair {
    static let cset82 = Array(
        "!\"%&'()*+,-./0123456789:;<=>?ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".utf8)
    static let cset32 = Array("23456789ABCDEFGHJKLMNPQRSTUVWXYZ".utf8)

    /// The first primes, one weight a character: enough for the longest AI data (99).
    static let primes: [Int] = {
        var found: [Int] = []
        var n = 2
        while found.count < 99 {
            if found.allSatisfy({ n % $0 != 0 }) { found.append(n) }
            n += 1
        }
        return found
    }()

    /// The two check characters for `data`, or `nil` when a character is not in CSET 82 or the
    /// data is longer than any AI allows.
    public static func pair<S: BidirectionalCollection>(for data: S) -> [UInt8]? where S.Element == UInt8 {
        guard data.count <= primes.count else { return nil }
        var sum = 0
        for (k, b) in data.reversed().enumerated() {
            guard let value = cset82.firstIndex(of: b) else { return nil }
            sum += value * primes[k]
        }
        sum %= 1021
        return [cset32[sum >> 5], cset32[sum & 31]]
    }

    /// Whether the last two characters of `text` are the check pair of the others.
    public static func isValid(_ text: String) -> Bool {
        let b = Array(text.utf8)
        guard b.count >= 2, let p = pair(for: b.dropLast(2)) else { return false }
        return Array(b.suffix(2)) == p
    }
}
