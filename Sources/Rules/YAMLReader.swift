import Yams

/// Typed access to a YAML node that reports every problem as a `RuleError` with
/// the file and line, and refuses keys it does not know (so typos are caught).
struct YAMLValue {
    let node: Node
    let file: String
    /// Where this value sits, for messages: `faults[2].above`.
    let path: String

    var line: Int { node.mark?.line ?? 0 }

    func error(_ reason: String) -> RuleError {
        RuleError(file: file, line: line, column: node.mark?.column ?? 0, reason: path.isEmpty ? reason : "\(path): \(reason)")
    }

    func string() throws -> String {
        guard case .scalar(let scalar) = node else { throw error("expected a word or a string") }
        return scalar.string
    }

    func number() throws -> Double {
        guard let value = node.float, value.isFinite else { throw error("expected a number") }
        return value
    }

    func integer() throws -> Int {
        guard let value = node.int else { throw error("expected a whole number") }
        return value
    }

    func bool() throws -> Bool {
        guard let value = node.bool else { throw error("expected true or false") }
        return value
    }

    func list() throws -> [YAMLValue] {
        guard case .sequence(let sequence) = node else { throw error("expected a list") }
        return sequence.enumerated().map { YAMLValue(node: $1, file: file, path: "\(path)[\($0)]") }
    }

    func strings() throws -> [String] { try list().map { try $0.string() } }

    /// A mapping whose keys must all be among `allowed`.
    func mapping(allowing allowed: Set<String>) throws -> YAMLMapping {
        guard case .mapping(let mapping) = node else { throw error("expected a mapping of keys to values") }
        var entries: [(String, YAMLValue)] = []
        for (key, value) in mapping {
            let name = try YAMLValue(node: key, file: file, path: path).string()
            guard allowed.contains(name) else {
                throw YAMLValue(node: key, file: file, path: path)
                    .error("unknown key \"\(name)\" (expected one of: \(allowed.sorted().joined(separator: ", ")))")
            }
            entries.append((name, YAMLValue(node: value, file: file, path: path.isEmpty ? name : "\(path).\(name)")))
        }
        return YAMLMapping(owner: self, entries: entries)
    }

    /// A mapping of names to values, each read by `read`, in file order.
    func namedEntries<T>(_ read: (String, YAMLValue) throws -> T) throws -> [T] {
        guard case .mapping(let mapping) = node else { throw error("expected a mapping of names to definitions") }
        return try mapping.map { key, value in
            let name = try YAMLValue(node: key, file: file, path: path).string()
            return try read(name, YAMLValue(node: value, file: file, path: "\(path).\(name)"))
        }
    }
}

/// The entries of a YAML mapping.
struct YAMLMapping {
    let owner: YAMLValue
    let entries: [(String, YAMLValue)]

    subscript(key: String) -> YAMLValue? { entries.first { $0.0 == key }?.1 }

    func required(_ key: String) throws -> YAMLValue {
        guard let value = self[key] else { throw owner.error("\"\(key)\" is required") }
        return value
    }

    /// Exactly one of `keys`, and which one it was.
    func oneOf(_ keys: [String]) throws -> (String, YAMLValue) {
        let present = keys.filter { self[$0] != nil }
        guard present.count == 1, let key = present.first else {
            throw owner.error("needs exactly one of \(keys.joined(separator: ", ")), found \(present.isEmpty ? "none" : present.joined(separator: " and "))")
        }
        return (key, self[key]!)
    }
}
