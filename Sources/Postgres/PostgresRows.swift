/// The rows a statement returned, copied out of libpq's result, in text format.
public struct PostgresRows: Sendable, RandomAccessCollection {
    /// The result's column names, in order.
    public let columns: [String]
    let values: [[String?]]
    /// How many rows an INSERT, UPDATE or DELETE touched (0 for other statements).
    public let affectedRows: Int

    public var startIndex: Int { values.startIndex }
    public var endIndex: Int { values.endIndex }

    public subscript(position: Int) -> PostgresRow {
        PostgresRow(columns: columns, values: values[position])
    }
}

/// One row of a result; columns are read by name as a `PostgresDecodable` type.
public struct PostgresRow: Sendable {
    let columns: [String]
    let values: [String?]

    /// The column's value; throws when the column is missing, NULL, or not a `T`.
    public func decode<T: PostgresDecodable>(_ column: String, as type: T.Type = T.self) throws -> T {
        guard let value = try decode(column, as: T?.self) else {
            throw PostgresError(.decoding, "column \(column) is NULL, expected \(T.self)")
        }
        return value
    }

    /// The column's value, or nil when it is NULL; throws when it is missing or not a `T`.
    public func decode<T: PostgresDecodable>(_ column: String, as type: T?.Type) throws -> T? {
        guard let index = columns.firstIndex(of: column) else {
            throw PostgresError(.decoding, "the result has no column \(column) (it has \(columns.joined(separator: ", ")))")
        }
        guard let text = values[index] else { return nil }
        guard let value = T(postgresText: text) else {
            throw PostgresError(
                .decoding, "column \(column) could not be read as a \(T.self)", detail: "it holds \(text.prefix(40).debugDescription)")
        }
        return value
    }
}
