import DAQCore
import Foundation

/// What the transform and the sink of `infomanager.resolve` share: the HTTP client, the cache
/// and its file, and the resolver over both, built at start and closed at finish.
///
/// # Thread safety
/// Used on the stage's queue only.
final class ResolverLifecycle {
    let settings: ResolverSettings
    private let cacheFile: ResolveCacheFile?
    private var client: InfoManagerClient?
    private var cache: ResolveCache
    private(set) var resolver: Resolver!

    init(settings: ResolverSettings, context: PluginContext) {
        self.settings = settings
        cache = ResolveCache(ttl: settings.cache.ttl.value, maxEntries: settings.cache.maxEntries)
        cacheFile =
            settings.cache.path.isEmpty
            ? nil : ResolveCacheFile(path: context.resolve(settings.cache.path), settings: settings.cacheIdentity)
    }

    deinit {
        // A stage that failed (`on_error: stop`) or was aborted is released without `finish`.
        client?.shutdownInBackground()
    }

    func start(context: StageContext) throws {
        if let cacheFile {
            let loaded = cacheFile.load()
            cache.restore(loaded.items)
            if let why = loaded.ignored {
                context.notice("cache file \(cacheFile.path) not used: \(why)")
            } else if !loaded.items.isEmpty || loaded.damaged > 0 {
                context.notice(
                    "cache file \(cacheFile.path): \(loaded.items.count) answer(s) loaded"
                        + (loaded.damaged > 0 ? ", \(loaded.damaged) damaged line(s) skipped" : ""))
            }
        }
        if settings.enabled {
            let token = settings.tokenEnv.isEmpty ? nil : ProcessInfo.processInfo.environment[settings.tokenEnv]
            client = InfoManagerClient(
                baseURL: settings.baseURL, languages: settings.languages.tags, inputType: settings.inputType,
                token: token, timeout: settings.timeout.value,
                retries: settings.retries, backoff: settings.backoff.value, maxInFlight: settings.maxInFlight)
        }
        resolver = Resolver(client: client, cache: cache, maxInFlight: settings.maxInFlight, context: context)
    }

    /// Saves the cache and closes the client; reports what was done.
    func finish(context: StageContext) {
        client?.shutdown()
        client = nil
        if settings.enabled { context.notice(resolver.summary) }
        guard let cacheFile else { return }
        do {
            try cacheFile.save(cache.snapshot)
        } catch {
            context.warn("cannot save the cache to \(cacheFile.path): \(error)")
        }
    }
}
