import DAQCore
import DAQInfoManager
import DAQInfoManagerServer
import Dispatch
import Logging
import Synchronization

/// The services of one test file, running on loopback while its cases run: each reference
/// Info Manager server answers from its elements file on a free port.
final class TestServices {
    /// Each running service's variable and URL, for the cases' environment.
    private(set) var environment: [String: String] = [:]
    private var running: [(task: Task<Void, Never>, done: DispatchSemaphore)] = []

    /// The server's start and stop messages would land between the cases' results.
    private static let quiet: Logger = {
        var logger = Logger(label: "daq-test-resolver")
        logger.logLevel = .critical
        return logger
    }()

    /// Why a service did not start.
    struct StartError: Error, CustomStringConvertible {
        var place: Place
        var description: String
    }

    /// Starts every service, each waited for until it listens.
    /// - Throws: ``ConfigError`` for an elements file with problems, ``StartError`` for a
    ///   server that did not start; services already started keep running until ``stop()``.
    func start(_ services: [ServiceSpec]) throws {
        for service in services {
            let server = try ReferenceServer(path: service.data)
            let port = Mutex<Int?>(nil)
            let failure = Mutex<String?>(nil)
            let listening = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            let logger = Self.quiet
            let task = Task {
                do {
                    try await server.run(host: "127.0.0.1", port: 0, logger: logger) { bound in
                        port.withLock { $0 = bound }
                        listening.signal()
                    }
                } catch {
                    failure.withLock { $0 = "\(error)" }
                }
                listening.signal()
                done.signal()
            }
            running.append((task, done))
            let waited = listening.wait(timeout: .now() + 30)
            guard waited == .success, let bound = port.withLock({ $0 }) else {
                let why = failure.withLock { $0 } ?? "it did not listen within 30 s"
                throw StartError(place: service.place, description: "the reference server did not start: \(why)")
            }
            environment[service.variable] = "http://127.0.0.1:\(bound)"
        }
    }

    /// Stops every service and waits until each has closed its port.
    func stop() {
        for (task, done) in running {
            task.cancel()
            _ = done.wait(timeout: .now() + 30)
        }
        running = []
        environment = [:]
    }
}
