import Foundation
import Postgres
import Store

/// A time as the command line prints it (ISO 8601).
func timestamp(_ date: Date) -> String {
    date.formatted(.iso8601)
}

/// `value` as one line of JSON on standard output: sorted, snake-case keys, ISO 8601 times.
func printJSON<T: Encodable>(_ value: T) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.dateEncodingStrategy = .iso8601
    encoder.keyEncodingStrategy = .convertToSnakeCase
    FileHandle.standardOutput.write(try encoder.encode(value) + Data("\n".utf8))
}

/// The organization an operator's command acts for: `given`, else the only one
/// (made, and said on standard error, when there is none); a usage error when there are several.
func resolvedOrganization(_ given: UUID?, _ connection: any PostgresClient) async throws -> UUID {
    if let given { return given }
    let all = try await Organization.all(on: connection)
    switch all.count {
    case 0:
        let made = try await Organization.create(name: "Default", on: connection)
        FileHandle.standardError.write(Data("made organization \(made.id.uuidString.lowercased()) (Default)\n".utf8))
        return made.id
    case 1: return all[0].id
    default:
        throw commandFailure(.usage, "there are \(all.count) organizations; pass --organization with one of their ids")
    }
}
