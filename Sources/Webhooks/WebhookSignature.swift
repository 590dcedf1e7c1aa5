import Crypto
import Foundation

/// The Standard Webhooks signature of one delivery: `v1,` and the base64 of
/// HMAC-SHA256 over `id.timestamp.body` with the endpoint's secret.
public enum WebhookSignature {
    /// The `webhook-signature` value for one secret.
    public static func sign(secret: WebhookSecret, id: String, timestamp: Int64, body: some DataProtocol) -> String {
        var authentication = HMAC<SHA256>(key: secret.key)
        authentication.update(data: Data("\(id).\(timestamp).".utf8))
        authentication.update(data: body)
        return "v1," + Data(authentication.finalize()).base64EncodedString()
    }

    /// The header value for every secret in force (space-separated), so that a
    /// receiver still holding the previous secret verifies during a rotation.
    public static func header(secrets: [WebhookSecret], id: String, timestamp: Int64, body: some DataProtocol) -> String {
        secrets.map { sign(secret: $0, id: id, timestamp: timestamp, body: body) }.joined(separator: " ")
    }
}
