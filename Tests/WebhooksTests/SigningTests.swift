import Foundation
import Testing
@testable import Webhooks

@Suite("Webhook signing and secrets")
struct SigningTests {
    static let knownSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

    @Test("Standard Webhooks' known answer")
    func knownAnswer() throws {
        let secret = try WebhookSecret(encoded: Self.knownSecret)
        let signature = WebhookSignature.sign(
            secret: secret, id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330, body: Data(#"{"test": 2432232314}"#.utf8))
        #expect(signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
    }

    @Test("a change to the id, the time or one byte of the body changes the signature")
    func bound() throws {
        let secret = try WebhookSecret(encoded: Self.knownSecret)
        let body = Data(#"{"test": 2432232314}"#.utf8)
        let base = WebhookSignature.sign(secret: secret, id: "msg_1", timestamp: 10, body: body)
        #expect(WebhookSignature.sign(secret: secret, id: "msg_2", timestamp: 10, body: body) != base)
        #expect(WebhookSignature.sign(secret: secret, id: "msg_1", timestamp: 11, body: body) != base)
        #expect(WebhookSignature.sign(secret: secret, id: "msg_1", timestamp: 10, body: body + Data(" ".utf8)) != base)
        #expect(WebhookSignature.sign(secret: .generate(), id: "msg_1", timestamp: 10, body: body) != base)
    }

    @Test("during a rotation the header carries one signature per secret, space-separated")
    func rotationHeader() throws {
        let old = try WebhookSecret(encoded: Self.knownSecret), new = WebhookSecret.generate()
        let body = Data("{}".utf8)
        let header = WebhookSignature.header(secrets: [new, old], id: "msg_1", timestamp: 5, body: body)
        #expect(header.split(separator: " ").map(String.init) == [
            WebhookSignature.sign(secret: new, id: "msg_1", timestamp: 5, body: body),
            WebhookSignature.sign(secret: old, id: "msg_1", timestamp: 5, body: body),
        ])
    }

    @Test("new secrets are whsec_ and the base64 of 32 random bytes, and never print themselves")
    func generated() throws {
        let a = WebhookSecret.generate(), b = WebhookSecret.generate()
        #expect(a != b)
        #expect(a.encoded.hasPrefix("whsec_"))
        #expect(Data(base64Encoded: String(a.encoded.dropFirst(6)))?.count == 32)
        #expect(try WebhookSecret(encoded: a.encoded) == a)
        #expect(!"\(a)".contains(a.encoded.dropFirst(6)) && !String(reflecting: a).contains(a.encoded.dropFirst(6)))
        for bad in ["MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsec_", "whsec_not base64!"] {
            #expect(throws: WebhookError.self) { try WebhookSecret(encoded: bad) }
        }
    }

    @Test("a sealed secret opens only with its key, for its endpoint, unaltered")
    func sealing() throws {
        let key = Data((0..<32).map { UInt8($0) }).base64EncodedString()
        let sealing = try SecretSealing(base64: key)
        let secret = WebhookSecret.generate(), endpoint = UUID()
        let sealed = try sealing.seal(secret, for: endpoint)
        #expect(try sealing.unseal(sealed, for: endpoint) == secret)
        #expect(sealed.range(of: Data(base64Encoded: String(secret.encoded.dropFirst(6)))!) == nil, "no key bytes in clear")
        #expect(try sealing.seal(secret, for: endpoint) != sealed, "a fresh nonce each time")

        let other = try SecretSealing(base64: Data(repeating: 7, count: 32).base64EncodedString())
        var altered = sealed
        altered[altered.count - 1] ^= 1
        for (opener, bytes, id) in [(other, sealed, endpoint), (sealing, sealed, UUID()), (sealing, altered, endpoint)] {
            #expect(throws: WebhookError.self) { try opener.unseal(bytes, for: id) }
        }
    }

    @Test("a missing or malformed sealing key is refused with how to make one")
    func sealingKey() {
        for environment in [[:], ["SPOTTER_WEBHOOK_KEY": ""], ["SPOTTER_WEBHOOK_KEY": "c2hvcnQ="], ["SPOTTER_WEBHOOK_KEY": "not base64"]] {
            do {
                _ = try SecretSealing.fromEnvironment(environment)
                Issue.record("accepted \(environment)")
            } catch {
                #expect(error.code == .invalidSealingKey && error.message.contains("openssl rand -base64 32"), "\(error)")
            }
        }
    }
}
