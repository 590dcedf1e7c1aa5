import Crypto
import Foundation

/// Signs and checks the expiring URLs through which workers fetch stored
/// uploads from the API (`/v1/storage/HEX?expires=T&signature=S`): an
/// HMAC-SHA256 over the digest and the expiry time, under a key that the
/// server and its workers share (`SPOTTER_STORAGE_KEY`, base64 of 32 bytes).
/// A fleet needs no shared disk, and a URL that leaks is useless after it expires.
public struct StorageSigning: Sendable {
    /// The key's bytes (SymmetricKey is not Sendable; one is made for each use).
    private let keyBytes: Data

    /// The variable the key is read from.
    public static let keyVariable = "SPOTTER_STORAGE_KEY"

    /// - Parameter key: 32 bytes.
    public init(key: Data) {
        keyBytes = key
    }

    private var key: SymmetricKey { SymmetricKey(data: keyBytes) }

    /// The key from `SPOTTER_STORAGE_KEY`; nil when it is not set.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws(StorageError) -> StorageSigning? {
        guard let text = environment[keyVariable], !text.isEmpty else { return nil }
        guard let bytes = Data(base64Encoded: text), bytes.count == 32 else {
            throw StorageError("\(keyVariable) must be the base64 of 32 bytes (`openssl rand -base64 32`)")
        }
        return StorageSigning(key: bytes)
    }

    /// The path and query of the URL for `digest`, good until `expires`.
    public func path(for digest: ContentDigest, expires: Date) -> String {
        let seconds = Int(expires.timeIntervalSince1970)
        return "/v1/storage/\(digest.hex)?expires=\(seconds)&signature=\(signature(digest, seconds))"
    }

    /// Whether `signature` signs `digest` until `expires` (unix seconds), and that time has not passed.
    public func isValid(_ signature: some StringProtocol, for digest: ContentDigest, expires: Int, now: Date = Date()) -> Bool {
        guard Double(expires) >= now.timeIntervalSince1970, let given = Self.bytes(base64URL: String(signature)) else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(given, authenticating: Data(Self.message(digest, expires).utf8), using: key)
    }

    private func signature(_ digest: ContentDigest, _ expires: Int) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data(Self.message(digest, expires).utf8), using: key)
        return Data(code).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    private static func message(_ digest: ContentDigest, _ expires: Int) -> String { "spotter-storage.\(digest.hex).\(expires)" }

    private static func bytes(base64URL text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
