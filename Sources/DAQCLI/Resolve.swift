import ArgumentParser
import DAQCore
import DAQInfoManager
import Dispatch
import Foundation
import Synchronization

extension DAQCommand {
    struct Resolve: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Resolve one id on an Info Manager service, without a pipeline.",
            discussion: """
                Asks GET /v1/elements/{ID}?lang=…&input_type=… and prints the id's state \
                (RESOLVED: the service has content; NODATA: it has none for the id; \
                UNRESOLVED: no answer) and the content in the first listed language the \
                service has. An answer of another input type than --type is an error. \
                CACHED occurs only in pipelines, whose resolver keeps a cache.

                The service is --url, else the environment variable RESOLVER_URL.

                Exit status:
                  0   RESOLVED or NODATA
                  3   UNRESOLVED: the service could not be reached or did not answer in time
                  4   UNRESOLVED: the service answered with an error status (after
                      retrying 5xx and 429) or not with the element asked for
                      (not JSON, another id or input type, too large)
                  64  usage error (no URL, an invalid URL or language)

                Examples:
                  daq resolve 04006381333931 --languages de,en --url http://127.0.0.1:8080
                  RESOLVER_URL=http://127.0.0.1:8080 daq resolve "ibeacon:E2C56DB5-DFFB-48D2-B060-D0F5A71096E0:1:2" --type beacon --json
                """)

        @Argument(help: "The id: a barcode's digits, a beacon's module id, an NFC tag id.")
        var id: String

        @Option(name: .customLong("type"), help: "The kind of id, sent as input_type.")
        var inputType: InputType = .barcode

        @OptionGroup var service: ServiceOptions

        @Option(help: "Language tags in priority order, comma-separated.")
        var languages = "en"

        @Flag(help: "Print one JSON object {id, input_type, state, data, error} for programs.")
        var json = false

        func run() throws {
            let client = try service.make(inputType: inputType, languages: languages)
            let result = Mutex<Result<ResolvedElement, InfoManagerError>?>(nil)
            let done = DispatchSemaphore(value: 0)
            client.resolve(id) { outcome in
                result.withLock { $0 = outcome }
                done.signal()
            }
            done.wait()
            let outcome = result.withLock { $0 }!
            switch outcome {
            case .success(let element):
                printOut(json ? ResolveOutput.json(element, error: nil) : ResolveOutput.text(element))
            case .failure(let error):
                let element = ResolvedElement(id: id, inputType: inputType, state: .unresolved, answer: nil)
                if json { printOut(ResolveOutput.json(element, error: error.message)) }
                printError("daq resolve: \(error)")
                throw ResolveExit.status(for: error)
            }
        }
    }
}

extension InputType: ExpressibleByArgument {}

/// Where `daq resolve` and `daq resolver news` find the service.
struct ServiceOptions: ParsableArguments {
    @Option(
        help: "The service, e.g. http://127.0.0.1:8080; default: the environment variable RESOLVER_URL."
    )
    var url: String?

    @Option(
        name: .customLong("token-env"),
        help: "Send `Authorization: Bearer` with the token in this environment variable.")
    var tokenEnv: String?

    @Option(help: "Seconds allowed for one request.")
    var timeout: Double = 5

    /// The client, or a usage error saying what is missing.
    func make(inputType: InputType, languages: String) throws -> InfoManagerService {
        let environment = ProcessInfo.processInfo.environment
        guard let url = url ?? environment["RESOLVER_URL"].flatMap({ $0.isEmpty ? nil : $0 }) else {
            throw ValidationError(
                "no service URL: pass --url URL or set RESOLVER_URL (e.g. RESOLVER_URL=http://127.0.0.1:8080)"
            )
        }
        var token: String?
        if let tokenEnv {
            guard let value = environment[tokenEnv], !value.isEmpty else {
                throw ValidationError("--token-env: the environment variable \(tokenEnv) is not set")
            }
            token = value
        }
        guard timeout > 0 else { throw ValidationError("--timeout must be more than 0 s") }
        try OptionRange.check(timeout, "--timeout", in: OptionRange.timeout)
        do {
            return try InfoManagerService(
                url: url, inputType: inputType, languages: LanguagePriority.parse(languages), token: token,
                timeout: timeout)
        } catch {
            throw ValidationError(error.message)
        }
    }
}

/// Exit statuses of `daq resolve` and `daq resolver news`, documented in their `--help`.
enum ResolveExit {
    static func status(for error: InfoManagerError) -> ExitCode {
        error.code == .unreachable || error.code == .timeout ? ExitCode(3) : ExitCode(4)
    }
}

/// How `daq resolve` prints an element.
enum ResolveOutput {
    /// `RESOLVED 4006381333931 (barcode, de)`, then one `key: value` line per field.
    static func text(_ element: ResolvedElement) -> String {
        var lines = [
            "\(element.state.rawValue) \(element.id) (\(element.inputType.rawValue)"
                + (element.answer.map { ", \($0.language))" } ?? ")")
        ]
        if let a = element.answer {
            for (key, value) in fields(a) { lines.append("  \(key): \(value)") }
        }
        return lines.joined(separator: "\n")
    }

    /// `{"id", "input_type", "state", "data", "error"?}`; `data` as the resolver sink writes it.
    static func json(_ element: ResolvedElement, error: String?) -> String {
        var out: [UInt8] = []
        out.append(contentsOf: #"{"id":"#.utf8)
        JSONEncoding.appendString(element.id, to: &out)
        out.append(contentsOf: #","input_type":"#.utf8)
        JSONEncoding.appendString(element.inputType.rawValue, to: &out)
        out.append(contentsOf: #","state":"#.utf8)
        JSONEncoding.appendString(element.state.rawValue, to: &out)
        out.append(contentsOf: #","data":"#.utf8)
        if let a = element.answer {
            out.append(UInt8(ascii: "{"))
            for (i, (key, value)) in ([("language", a.language)] + fields(a)).enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONEncoding.appendString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                JSONEncoding.appendString(value, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        } else {
            out.append(contentsOf: "null".utf8)
        }
        if let error {
            out.append(contentsOf: #","error":"#.utf8)
            JSONEncoding.appendString(error, to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    private static func fields(_ a: ElementAnswer) -> [(String, String)] {
        [
            ("name", a.name), ("description", a.description), ("url", a.url), ("image_url", a.imageURL),
            ("updated", a.updated),
        ]
        .compactMap { key, value in value.map { (key, $0) } }
    }
}
