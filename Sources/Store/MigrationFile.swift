import Contracts
import Foundation

/// One schema migration: `Migrations/NNNN_name.sql`, plain SQL, applied once in
/// a transaction and never edited afterwards.
public struct MigrationFile: Sendable, Equatable {
    /// The number the file name starts with; migrations apply in this order.
    public var version: Int
    /// The rest of the file name, without `.sql`.
    public var name: String
    public var path: String
    public var sql: String

    /// The migrations in `directory`, in version order. Throws when a `.sql` file
    /// is misnamed or two files share a version.
    public static func all(in directory: String) throws -> [MigrationFile] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw MigrationError(file: directory, reason: "cannot list the migrations directory")
        }
        var files: [MigrationFile] = []
        for name in names where name.hasSuffix(".sql") {
            let path = directory + "/" + name
            let stem = name.dropLast(4)
            guard let separator = stem.firstIndex(of: "_"), let version = Int(stem[..<separator]),
                stem[..<separator].count == 4, separator < stem.index(before: stem.endIndex)
            else {
                throw MigrationError(file: path, reason: "a migration's name must be NNNN_name.sql")
            }
            guard let data = FileManager.default.contents(atPath: path) else {
                throw MigrationError(file: path, reason: "cannot read the file")
            }
            guard let sql = String(data: data, encoding: .utf8) else {
                throw MigrationError(file: path, reason: "the file is not UTF-8 text")
            }
            if let other = files.first(where: { $0.version == version }) {
                throw MigrationError(file: path, reason: "version \(version) is also taken by \(other.path)")
            }
            files.append(MigrationFile(version: version, name: String(stem[stem.index(after: separator)...]), path: path, sql: sql))
        }
        return files.sorted { $0.version < $1.version }
    }
}

/// A migration that cannot be applied: a misnamed or unreadable file, an
/// applied file that was edited or removed, or SQL the server refused.
public struct MigrationError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var reason: String

    public var description: String { "\(file): \(reason)" }
}

extension MigrationError: DescribedFailure {
    public var failureKind: FailureKind { .badInput }
    public var safeMessage: String { description }
}
