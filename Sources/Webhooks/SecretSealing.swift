import Crypto
import Foundation

/// Seals endpoint secrets for storage with AES-256-GCM under a key from the
/// environment (`SPOTTER_WEBHOOK_KEY`, base64 of 32 bytes), so that a dump of
/// the database alone does not let anyone sign as Spotter. Each sealed secret is
/// bound to its endpoint's id (authenticated data): moved to another row, it
/// does not open.
public struct SecretSealing: Sendable {
    /// The environment variable holding the key.
    public static let environmentVariable = "SPOTTER_WEBHOOK_KEY"
    /// The first byte of a sealed secret: the format, so that another can follow.
    static let formatVersion: UInt8 = 1

    /// The key's bytes (swift-crypto's key type is not `Sendable` here).
    private let keyBytes: [UInt8]
    private var key: SymmetricKey { SymmetricKey(data: keyBytes) }

    /// A sealing key from its base64 text.
    public init(base64 text: String) throws(WebhookError) {
        guard let bytes = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)), bytes.count == 32 else {
            throw WebhookError(
                .invalidSealingKey, "\(Self.environmentVariable) must be the base64 of 32 random bytes (e.g. `openssl rand -base64 32`)")
        }
        keyBytes = Array(bytes)
    }

    /// The key named by the environment; an error saying how to set one when absent.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws(WebhookError) -> SecretSealing {
        guard let text = environment[environmentVariable], !text.isEmpty else {
            throw WebhookError(
                .invalidSealingKey,
                "\(environmentVariable) is not set: webhook secrets are stored sealed with it (the base64 of 32 random bytes, e.g. `openssl rand -base64 32`)")
        }
        return try SecretSealing(base64: text)
    }

    /// The secret sealed for the endpoint `endpointID`.
    public func seal(_ secret: WebhookSecret, for endpointID: UUID) throws -> Data {
        let box = try secret.key.withUnsafeBytes { plaintext in
            try AES.GCM.seal(Data(plaintext), using: key, authenticating: Self.binding(endpointID))
        }
        guard let combined = box.combined else { throw WebhookError(.cannotUnseal, "a webhook secret could not be sealed") }
        return Data([Self.formatVersion]) + combined
    }

    /// The secret sealed for `endpointID`; an error when it was sealed with another key, for another endpoint, or altered.
    public func unseal(_ sealed: Data, for endpointID: UUID) throws(WebhookError) -> WebhookSecret {
        guard sealed.first == Self.formatVersion,
              let box = try? AES.GCM.SealedBox(combined: sealed.dropFirst()),
              let plaintext = try? AES.GCM.open(box, using: key, authenticating: Self.binding(endpointID))
        else {
            throw WebhookError(
                .cannotUnseal,
                "the secret of webhook endpoint \(endpointID.uuidString.lowercased()) does not open with \(Self.environmentVariable) (another key, or altered)")
        }
        return WebhookSecret(key: SymmetricKey(data: plaintext))
    }

    private static func binding(_ endpointID: UUID) -> Data {
        Data("spotter.webhook-endpoint:\(endpointID.uuidString.lowercased())".utf8)
    }
}
