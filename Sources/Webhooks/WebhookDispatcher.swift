import Contracts
import Foundation
import Logging
import Postgres
import Transfer

/// Delivers the outbox's events to webhook endpoints: fans events out into
/// deliveries, claims due ones, POSTs each signed body and records every
/// attempt, until cancelled. Any number may run (one in every worker); they
/// share the work through the database. Woken at once by new events and
/// deliveries (NOTIFY), polling as a fallback for retries coming due.
public struct WebhookDispatcher: Sendable {
    public struct Configuration: Sendable {
        /// Deliveries in flight at once in this dispatcher.
        public var concurrency = 16
        /// Deliveries leased at once to one endpoint, across dispatchers (approximately).
        public var perEndpoint = 4
        /// The longest one attempt may take, connecting included.
        public var timeout: Duration = .seconds(15)
        /// How often to look for retries that came due without a notification.
        public var pollInterval: Duration = .seconds(1)
        /// Prefix of the report URL in bodies (`SPOTTER_PUBLIC_URL`), nil to send the path alone.
        public var publicURL: String?
        /// The response body bytes kept for the endpoint's owner.
        public var excerptBytes = 512
        public var policy = DeliveryPolicy()

        public init() {}
    }

    let queue: DeliveryQueue
    let endpoints: WebhookEndpoints
    let transfer: HTTPTransfer
    let configuration: Configuration
    let logger: Logger

    public init(queue: DeliveryQueue, endpoints: WebhookEndpoints, transfer: HTTPTransfer, configuration: Configuration, logger: Logger) {
        self.queue = queue
        self.endpoints = endpoints
        self.transfer = transfer
        self.configuration = configuration
        self.logger = logger
    }

    /// Dispatches until the task is cancelled; `listener` is a connection of its own for notifications.
    public func run(listener: PostgresConnection) async throws {
        try await listener.listen(DeliveryQueue.outboxChannel)
        try await listener.listen(DeliveryQueue.deliveriesChannel)
        while !Task.isCancelled {
            do {
                // A full batch means there may be more: go on without waiting.
                if try await dispatchOnce() >= configuration.concurrency { continue }
            } catch is CancellationError {
                return
            } catch {
                logger.error("webhook dispatch failed; retrying", metadata: ["error": "\(describeFailureForOperator(error))"])
                try? await Task.sleep(for: configuration.pollInterval)
            }
            do {
                // Drain every notification that arrived: one pass serves them all.
                var wait = configuration.pollInterval
                while try await listener.nextNotification(timeout: wait) != nil { wait = .zero }
            } catch is CancellationError {
                return
            }
        }
    }

    /// One pass: fans out new events, claims what is due and delivers it; the number of attempts made.
    @discardableResult
    public func dispatchOnce() async throws -> Int {
        try await queue.fanOut()
        let claimed = try await queue.claim(limit: configuration.concurrency, perEndpoint: configuration.perEndpoint)
        // Each endpoint's secrets once per batch.
        var secrets: [UUID: Result<[WebhookSecret], any Error>] = [:]
        for delivery in claimed where secrets[delivery.endpointID] == nil {
            do {
                secrets[delivery.endpointID] = .success(
                    try await endpoints.signingSecrets(delivery.endpointID, .organization(delivery.organizationID)))
            } catch {
                secrets[delivery.endpointID] = .failure(error)
            }
        }
        await withTaskGroup(of: Void.self) { group in
            for delivery in claimed {
                let signing = secrets[delivery.endpointID]!
                group.addTask { await self.attempt(delivery, secrets: signing) }
            }
        }
        return claimed.count
    }

    /// One attempt at one delivery, recorded whatever happens.
    func attempt(_ delivery: ClaimedDelivery, secrets signing: Result<[WebhookSecret], any Error>) async {
        let started = ContinuousClock.now
        var status: Int?, excerpt: String?, outcome: DeliveryPolicy.Outcome
        do {
            let secrets = try signing.get()
            let body = try WebhookBody.encode(delivery, publicURL: configuration.publicURL)
            let timestamp = Int64(Date().timeIntervalSince1970)
            let response = try await transfer.post(
                to: delivery.url,
                headers: [
                    ("Content-Type", "application/json"), ("webhook-id", delivery.webhookID), ("webhook-timestamp", String(timestamp)),
                    ("webhook-signature", WebhookSignature.header(secrets: secrets, id: delivery.webhookID, timestamp: timestamp, body: body)),
                ],
                body: [UInt8](body), timeout: configuration.timeout, responseBodyLimit: configuration.excerptBytes)
            status = response.status
            excerpt = response.body.isEmpty ? nil : String(decoding: response.body, as: UTF8.self)
            outcome = .answered(status: response.status, retryAfter: response.header("Retry-After"))
        } catch {
            outcome = .noAnswer(reason: describeFailure(error).message)
        }
        let latency = started.duration(to: .now)
        var random = SystemRandomNumberGenerator()
        let decision = configuration.policy.decide(
            outcome, attempt: delivery.attemptSinceReplay, now: Date(), failingSince: delivery.failingSince, random: &random)
        var error: String?
        if case .noAnswer(let reason) = outcome { error = reason }
        let record = DeliveryQueue.AttemptRecord(
            status: status, error: error, latencyMilliseconds: Int((latency / .milliseconds(1)).rounded()),
            responseExcerpt: excerpt, decision: decision)
        do {
            if try await !queue.record(delivery, record) {
                logger.warning("webhook delivery's lease ran out before its attempt was recorded", metadata: ["delivery": "\(delivery.id)"])
            }
        } catch {
            // The lease runs out and another dispatcher tries again: at least once, same webhook-id.
            logger.error("could not record a webhook attempt", metadata: ["delivery": "\(delivery.id)", "error": "\(describeFailureForOperator(error))"])
        }
        logger.info("webhook attempt", metadata: [
            "delivery": "\(delivery.id)", "endpoint": "\(delivery.endpointID.uuidString.lowercased())", "attempt": "\(delivery.attempt)",
            "status": "\(status.map(String.init) ?? "none")", "decision": "\(Self.name(decision))",
        ])
    }

    private static func name(_ decision: DeliveryPolicy.Decision) -> String {
        switch decision {
        case .delivered: "delivered"
        case .retry: "retry"
        case .dead: "dead"
        case .disableEndpoint: "endpoint disabled"
        }
    }
}
