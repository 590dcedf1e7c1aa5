import Crypto
import Foundation

/// An endpoint's signing secret: `whsec_` followed by the base64 of its key
/// bytes (Standard Webhooks). It never prints itself: `description` is redacted,
/// so that a secret cannot reach a log by accident; `encoded` is the one way to
/// the text, for the endpoint's owner when it is made or rotated.
public struct WebhookSecret: Sendable, Equatable, CustomStringConvertible {
    /// The key's bytes (kept as bytes: swift-crypto's key type is not `Sendable` here).
    private let bytes: [UInt8]

    /// The key the signatures are made with.
    var key: SymmetricKey { SymmetricKey(data: bytes) }

    public static let prefix = "whsec_"
    /// A new secret's length: 32 random bytes.
    static let generatedByteCount = 32

    /// A new secret from the system's cryptographic random generator.
    public static func generate() -> WebhookSecret {
        WebhookSecret(key: SymmetricKey(size: .bits256))
    }

    init(key: SymmetricKey) {
        bytes = key.withUnsafeBytes { Array($0) }
    }

    /// Reads `whsec_<base64>`, as shown to the endpoint's owner.
    public init(encoded text: String) throws(WebhookError) {
        guard text.hasPrefix(Self.prefix), let bytes = Data(base64Encoded: String(text.dropFirst(Self.prefix.count))),
              !bytes.isEmpty
        else {
            throw WebhookError(.invalidSecret, "a webhook secret is \"whsec_\" followed by base64")
        }
        self.bytes = Array(bytes)
    }

    /// `whsec_<base64>`: to show the endpoint's owner once, never to log.
    public var encoded: String {
        Self.prefix + Data(bytes).base64EncodedString()
    }

    public var description: String { "whsec_…(redacted)" }

}
