import Contracts

/// A webhook request or secret that cannot be used: the code, and a message
/// safe to show (it never holds a secret).
public struct WebhookError: Error, Sendable, Equatable, CustomStringConvertible, DescribedFailure {
    public enum Code: String, Sendable {
        /// Not `whsec_` + base64.
        case invalidSecret
        /// The sealing key is missing or malformed.
        case invalidSealingKey
        /// A stored secret does not open with the sealing key (another key, or tampered with).
        case cannotUnseal
        /// The endpoint's URL is not one Spotter delivers to.
        case invalidTarget
        /// An event type Spotter does not send.
        case unknownEventType
        /// No endpoint with that id in the organization.
        case unknownEndpoint
        /// A stored event that cannot be sent (its payload is not a JSON object).
        case invalidEvent
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
    public var safeMessage: String { message }

    public var failureKind: FailureKind {
        switch code {
        case .invalidSecret, .invalidTarget, .unknownEventType, .unknownEndpoint: .usage
        case .invalidSealingKey, .cannotUnseal: .unavailable
        case .invalidEvent: .internalError
        }
    }
}
