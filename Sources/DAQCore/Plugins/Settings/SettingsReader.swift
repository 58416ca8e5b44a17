/// Finds the ``Setting``s of a group by reflection, the way swift-argument-parser finds a
/// command's options: the declarations are the stored properties themselves, so there is no
/// list beside them to keep in step.
enum SettingsReader {
    /// One ``Setting`` and the key it answers to.
    struct Found {
        var key: String
        var setting: any AnySetting
    }

    /// The settings of `group`, flattening groups stored as plain properties.
    static func settings(of group: Any) -> [Found] {
        var found: [Found] = []
        for child in Mirror(reflecting: group).children {
            if let setting = child.value as? any AnySetting {
                let label = child.label.map { $0.hasPrefix("_") ? String($0.dropFirst()) : $0 } ?? ""
                found.append(Found(key: setting.declaration.key ?? snakeCase(label), setting: setting))
            } else if child.value is any SettingGroup {
                found += settings(of: child.value)
            }
        }
        return found
    }

    static func keys(of group: Any) -> [ConfigKey] {
        settings(of: group).map { found in
            let d = found.setting.declaration
            var key = ConfigKey(
                found.key, d.type ?? found.setting.valueType, default: found.setting.defaultText ?? d.whenUnset, d.help)
            key.required = d.required
            return key
        }
    }

    static func read(_ group: some SettingGroup, from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        let found = settings(of: group)
        let prefix = decoder.codingPath.map(\.stringValue).joined(separator: ".")
        // A nested mapping's keys are checked here; the component's own keys were checked, with
        // the common keys, by validation.
        if !decoder.codingPath.isEmpty {
            let names = found.map(\.key)
            for key in container.allKeys where !names.contains(key.stringValue) {
                var message = "unknown key '\(key.stringValue)'"
                if let guess = DidYouMean.best(key.stringValue, in: names) { message += " (did you mean '\(guess)'?)" }
                message += "; expected \(names.joined(separator: ", "))"
                throw ConfigIssue(key: prefix + "." + key.stringValue, message)
            }
        }
        for f in found {
            try f.setting.read(from: container, key: AnyKey(f.key), path: prefix.isEmpty ? f.key : prefix + "." + f.key)
        }
    }

    /// `maxInFlight` → `max_in_flight`, `baseURL` → `base_url`, `id3Tag` → `id3_tag`.
    static func snakeCase(_ name: String) -> String {
        let chars = Array(name)
        var out = ""
        for (i, c) in chars.enumerated() {
            if c.isUppercase, i > 0 {
                let previous = chars[i - 1]
                let nextIsLower = i + 1 < chars.count && chars[i + 1].isLowercase
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLower) { out += "_" }
            }
            out += c.lowercased()
        }
        return out
    }
}

/// A ``Setting`` with its value type erased, for the reader.
protocol AnySetting {
    var declaration: SettingDeclaration { get }
    var valueType: String { get }
    var defaultText: String? { get }
    var currentValue: Any? { get }
    func read(from container: KeyedDecodingContainer<AnyKey>, key: AnyKey, path: String) throws
}

extension Setting: AnySetting {
    var valueType: String { Value.configType }
    var currentValue: Any? {
        guard let value = storage.value else { return nil }
        // An optional key holds an optional: unset is nil, not a boxed `.none`.
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first?.value
    }
    var defaultText: String? { declaration.required ? nil : storage.value.flatMap(\.configText) }

    func read(from container: KeyedDecodingContainer<AnyKey>, key: AnyKey, path: String) throws {
        storage.path = path
        if declaration.required {
            storage.value = try container.decode(Value.self, forKey: key)
            storage.written = true
        } else if let value = try container.decodeIfPresent(Value.self, forKey: key) {
            storage.value = value
            storage.written = true
        }
    }
}
