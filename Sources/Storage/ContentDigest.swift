/// The SHA-256 of a stored file's bytes, in lowercase hex: its name in the store.
public struct ContentDigest: Hashable, Sendable, CustomStringConvertible {
    public let hex: String

    /// nil unless `hex` is 64 hex digits (any case).
    public init?(hex: some StringProtocol) {
        let lowered = hex.lowercased()
        guard lowered.utf8.count == 64, lowered.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { return nil }
        self.hex = lowered
    }

    init(bytes: some Sequence<UInt8>) {
        hex = bytes.map { byte in
            let digits = Array("0123456789abcdef".utf8)
            return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 15)]], as: UTF8.self)
        }.joined()
    }

    public var description: String { hex }

    /// A job's source naming this file: `spotter-storage:sha256:HEX` (the store's `JobSource.stored`).
    public var sourceURI: String { "spotter-storage:sha256:" + hex }
}
