import Foundation

/// A UUID written as lower-case text in JSON, as in the API's paths and
/// `report_url`s (Foundation writes upper case); read in any case.
@propertyWrapper
public struct LowercasedID: Codable, Sendable, Hashable {
    public var wrappedValue: UUID

    public init(wrappedValue: UUID) {
        self.wrappedValue = wrappedValue
    }

    public init(from decoder: any Decoder) throws {
        wrappedValue = try decoder.singleValueContainer().decode(UUID.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue.uuidString.lowercased())
    }
}
