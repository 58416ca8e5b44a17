import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A connection to a run's control socket, for `daq tap`, `top` and `control`.
final class ControlClient {
    let fd: Int32
    let reader: SocketLineReader

    /// Connects to the run named by RUN (see ``ControlSockets/resolve(_:)``).
    init(run: String?) throws {
        let path = try ControlSockets.resolve(run)
        do {
            fd = try UnixSocket.connect(to: path)
        } catch {
            throw ControlError("\(error) (has the run ended?)")
        }
        reader = SocketLineReader(fd: fd)
    }

    deinit { close(fd) }

    /// Sends one command line and returns the first answer line.
    func request(_ command: String) throws -> String {
        guard UnixSocket.write(fd, Array((command + "\n").utf8)), let line = reader.next() else {
            throw ControlError("the run closed the control socket")
        }
        return line
    }

    /// Sends a command and then yields every answer line until the run closes the connection.
    func stream(_ command: String, _ body: (String) -> Bool) throws {
        guard UnixSocket.write(fd, Array((command + "\n").utf8)) else {
            throw ControlError("the run closed the control socket")
        }
        while let line = reader.next() {
            if !body(line) { return }
        }
    }
}
