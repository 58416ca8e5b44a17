import ArgumentParser
import DAQInfoManager
import Dispatch
import Foundation
import Synchronization

extension DAQCommand.Resolver {
    struct News: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print an Info Manager service's news.",
            discussion: """
                Asks GET /v1/news?lang=… and prints every item in the first listed language \
                it has (else the item's own first language; each item says which). The \
                service is --url, else the environment variable RESOLVER_URL.

                Exit status:
                  0   the news was printed, or the service has none ("no news")
                  3   the service could not be reached or did not answer in time
                  4   the service answered with an error status or something that is not news
                  64  usage error (no URL, an invalid URL or language)

                Example:
                  daq resolver news --language de,en --url http://127.0.0.1:8080
                """)

        @Option(help: "Language tags in priority order, comma-separated.")
        var language = "en-GB"

        @OptionGroup var service: ServiceOptions

        @Flag(
            help:
                "Print the service's answer as one JSON object {language, text, items: [{id, language, text, updated}]}; {\"items\": []} when there is no news."
        )
        var json = false

        func run() throws {
            let client = try service.make(inputType: .barcode, languages: language)
            let result = Mutex<Result<NewsAnswer?, InfoManagerError>?>(nil)
            let done = DispatchSemaphore(value: 0)
            client.news { outcome in
                result.withLock { $0 = outcome }
                done.signal()
            }
            done.wait()
            switch result.withLock({ $0 })! {
            case .success(let news):
                printOut(json ? Self.json(news) : Self.text(news))
            case .failure(let error):
                printError("daq resolver news: \(error)")
                throw ResolveExit.status(for: error)
            }
        }

        static func text(_ news: NewsAnswer?) -> String {
            guard let news else { return "no news" }
            return news.items.map { item in
                "[\(item.id)] \(item.language)" + (item.updated.map { " (updated \($0))" } ?? "") + "\n  "
                    + item.text
            }.joined(separator: "\n")
        }

        static func json(_ news: NewsAnswer?) -> String {
            guard let news else { return #"{"items":[]}"# }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return (try? encoder.encode(news)).map { String(decoding: $0, as: UTF8.self) }
                ?? #"{"items":[]}"#
        }
    }
}
