import DAQCore
import DequeModule

/// The batches an `exec` transform or sink has sent and its program has not acknowledged:
/// numbered as sent, resent whole after a restart, released by `ack`.
struct UnackedBatches {
    /// Sent and unacknowledged before the stage stops taking input.
    static let window = 4

    private var batches = Deque<(number: Int64, batch: Batch)>()
    private var nextNumber: Int64 = 1

    var isEmpty: Bool { batches.isEmpty }
    var isFull: Bool { batches.count >= Self.window }

    /// Records `batch` and returns the lines that send it.
    mutating func send(_ batch: Batch) -> [UInt8] {
        let n = nextNumber
        nextNumber += 1
        batches.append((n, batch))
        var bytes: [UInt8] = []
        ExecProtocol.append(batch, number: n, to: &bytes)
        return bytes
    }

    /// The lines that send every unacknowledged batch again, in order.
    func resend() -> [UInt8] {
        var bytes: [UInt8] = []
        for (n, b) in batches { ExecProtocol.append(b, number: n, to: &bytes) }
        return bytes
    }

    /// Releases the batches up to `number`; returns how many samples they held and whether the
    /// stage should be woken (it was full, or nothing is owed any more).
    mutating func ack(_ number: Int64) -> (samples: Int, wake: Bool) {
        let wasFull = isFull
        var samples = 0
        while let first = batches.first, first.number <= number { samples += batches.removeFirst().batch.count }
        return (samples, wasFull || batches.isEmpty)
    }
}
