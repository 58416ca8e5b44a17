import Foundation

/// What a ``ServiceProcess`` printed: standard output as lines, standard error as bytes, and
/// whether each has ended.
///
/// # Thread safety
/// Everything sits behind one `NSCondition`; the reader threads append and broadcast, any
/// thread may wait.
final class ServiceOutput: @unchecked Sendable {
    private let condition = NSCondition()
    private var lines: [String] = []
    /// Lines already handed to a waiter.
    private var consumed = 0
    private var errors = Data()
    private var outputEnded = false
    private var errorsEnded = false

    /// Reads `handle` to its end, a line at a time.
    func readLines(_ handle: FileHandle) {
        var pending = Data()
        while case let chunk = handle.availableData, !chunk.isEmpty {
            pending.append(chunk)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                update { $0.lines.append(line) }
            }
        }
        update { $0.outputEnded = true }
    }

    /// Reads `handle` to its end as standard error.
    func readErrors(_ handle: FileHandle) {
        while case let chunk = handle.availableData, !chunk.isEmpty {
            update { $0.errors.append(chunk) }
        }
        update { $0.errorsEnded = true }
    }

    private func update(_ change: (ServiceOutput) -> Void) {
        condition.lock()
        change(self)
        condition.broadcast()
        condition.unlock()
    }

    var errorOutput: String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: errors, as: UTF8.self)
    }

    private func failure(_ what: String) -> ServiceProcessError {
        ServiceProcessError(
            message: what, output: lines.joined(separator: "\n"), errors: String(decoding: errors, as: UTF8.self))
    }

    func waitForError(containing text: String, timeout: Double, name: String) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !String(decoding: errors, as: UTF8.self).contains(text) {
            if errorsEnded || !condition.wait(until: deadline) {
                guard !String(decoding: errors, as: UTF8.self).contains(text) else { return }
                throw failure("\(name) \(errorsEnded ? "ended" : "printed no '\(text)' on stderr within \(timeout) s")")
            }
        }
    }

    func waitForLine(timeout: Double, name: String, _ match: (String) -> Bool) throws -> String {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            while consumed < lines.count {
                let line = lines[consumed]
                consumed += 1
                if match(line) { return line }
            }
            if outputEnded || !condition.wait(until: deadline) {
                throw failure("\(name) \(outputEnded ? "ended" : "printed nothing matching within \(timeout) s")")
            }
        }
    }

    /// Waits until both outputs have ended.
    func waitForEnd(timeout: Double, name: String) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !(outputEnded && errorsEnded) {
            guard condition.wait(until: deadline) else { throw failure("\(name) did not end within \(timeout) s") }
        }
    }
}
