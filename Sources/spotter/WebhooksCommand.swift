import ArgumentParser
import Contracts
import Foundation
import Postgres
import Store
import Transfer
import Webhooks

extension Spotter {
    /// Webhook endpoints, for operators: register, list, disable, rotate secrets, and sign a body as Spotter would.
    struct WebhooksCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "webhooks",
            abstract: "Manage webhook endpoints and check signatures.",
            discussion: """
                Secrets are stored sealed with $\(SecretSealing.environmentVariable) (the base64 of 32 \
                random bytes) and shown only when made. Targets are https URLs on public addresses; \
                SPOTTER_ALLOW_PRIVATE_TARGETS=1 also allows http and loopback, private and carrier-grade \
                NAT addresses (development and tests), never link-local ones.
                """,
            subcommands: [Add.self, List.self, Disable.self, RotateSecret.self, Deliveries.self, Replay.self, Sign.self])

        /// Whether `SPOTTER_ALLOW_PRIVATE_TARGETS=1` is set.
        static var allowsPrivateTargets: Bool { ProcessInfo.processInfo.environment["SPOTTER_ALLOW_PRIVATE_TARGETS"] == "1" }

        /// The address policy for webhook targets.
        static var targetPolicy: AddressPolicy {
            allowsPrivateTargets ? AddressPolicy(allowing: [.loopback, .private, .sharedAddressSpace]) : .publicOnly
        }

        static func endpoints(_ database: DatabaseOptions) async throws -> WebhookEndpoints {
            let sealing: SecretSealing
            do { sealing = try SecretSealing.fromEnvironment() } catch { throw commandFailure(error) }
            return WebhookEndpoints(database: try await database.connect(), sealing: sealing)
        }
    }
}

extension Spotter.WebhooksCommand {
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Register an endpoint; its secret is printed once.")

        @Argument(help: "The URL events are POSTed to.")
        var url: String

        @Option(help: "Comma-separated event types (default: all: \(WebhookEndpoint.eventTypes.joined(separator: ","))).")
        var events: String?

        @Option(help: "The organization's id (default: the only organization; one is made when there is none).")
        var organization: UUID?

        @Flag(help: "Print {\"id\": …, \"secret\": …} as JSON.")
        var json = false

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let target: TargetURL
            let types: [String]
            do {
                target = try TargetURL(url, allowingHTTP: Spotter.WebhooksCommand.allowsPrivateTargets, policy: Spotter.WebhooksCommand.targetPolicy)
                types = try WebhookEndpoint.eventTypes(events.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? [])
            } catch {
                // The URL and the events are the command's arguments: a refusal is a usage error.
                throw commandFailure(.usage, describeFailure(error).message)
            }
            let endpoints = try await Spotter.WebhooksCommand.endpoints(database)
            do {
                let organizationID = try await resolvedOrganization(organization, endpoints.database)
                let (endpoint, secret) = try await endpoints.add(target, eventTypes: types, organizationID: organizationID)
                let id = endpoint.id.uuidString.lowercased()
                if json { return try printJSON(["id": id, "secret": secret.encoded]) }
                print("endpoint \(id) → \(target.redacted) (\(endpoint.eventTypes.joined(separator: ", ")))")
                print("secret   \(secret.encoded)   (shown once: keep it with the receiver)")
            } catch let exit as ExitCode { throw exit } catch { throw commandFailure(error) }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List endpoints, oldest first.")

        @Flag(help: "Print the endpoints as a JSON array.")
        var json = false

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let endpoints = try await Spotter.WebhooksCommand.endpoints(database)
            let all: [WebhookEndpoint]
            do { all = try await endpoints.list(.allOrganizations) } catch { throw commandFailure(error) }
            if json { return try printJSON(all) }
            let rows = all.map { endpoint in
                [endpoint.id.uuidString.lowercased(), endpoint.enabled ? "enabled" : "disabled", redactedURL(endpoint.url),
                 endpoint.eventTypes.joined(separator: ","), endpoint.organizationID.uuidString.lowercased(),
                 endpoint.disabledReason ?? (endpoint.previousSecretUntil.map { "previous secret signs until \(timestamp($0))" } ?? "")]
            }
            print(table([["id", "state", "url", "events", "organization", "note"]] + rows), terminator: "")
        }
    }

    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop deliveries to an endpoint; its pending deliveries are cancelled.")

        @Argument(help: "The endpoint's id.")
        var id: UUID

        @Option(help: "Why, as its owner will read it.")
        var reason = "disabled by an operator"

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let endpoints = try await Spotter.WebhooksCommand.endpoints(database)
            do { try await endpoints.disable(id, reason: reason, .allOrganizations) } catch { throw commandFailure(error) }
            print("endpoint \(id.uuidString.lowercased()) disabled: \(reason)")
        }
    }

    struct RotateSecret: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate-secret",
            abstract: "Give an endpoint a new secret; deliveries carry both signatures for 24 hours.")

        @Argument(help: "The endpoint's id.")
        var id: UUID

        @Flag(help: "Print {\"id\": …, \"secret\": …} as JSON.")
        var json = false

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let endpoints = try await Spotter.WebhooksCommand.endpoints(database)
            let secret: WebhookSecret
            do { secret = try await endpoints.rotateSecret(id, .allOrganizations) } catch { throw commandFailure(error) }
            if json { return try printJSON(["id": id.uuidString.lowercased(), "secret": secret.encoded]) }
            print("secret   \(secret.encoded)   (shown once; the previous one also signs for 24 hours)")
        }
    }

    struct Sign: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the webhook-signature of a body read on standard input, as Spotter sends it.",
            discussion: "For receivers checking their verification: the body is read byte for byte, without a trailing newline added or removed.")

        @Option(help: "The endpoint's secret (whsec_…).")
        var secret: String

        @Option(help: "The webhook-id.")
        var id: String

        @Option(help: "The webhook-timestamp (unix seconds).")
        var timestamp: Int64

        func run() throws {
            let parsed: WebhookSecret
            do { parsed = try WebhookSecret(encoded: secret) } catch { throw commandFailure(error) }
            let body = FileHandle.standardInput.readDataToEndOfFile()
            print(WebhookSignature.sign(secret: parsed, id: id, timestamp: timestamp, body: body))
        }
    }
}

extension Spotter.WebhooksCommand {
    struct Deliveries: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List deliveries, newest first: state, attempts, the last answer (status, latency, response) or error.")

        @Argument(help: "Only this endpoint's deliveries.")
        var endpoint: UUID?

        @Option(help: "At most this many.")
        var limit = 50

        @Flag(help: "List every attempt (status, latency, the answer's start or the error) instead of the deliveries.")
        var attempts = false

        @Flag(help: "Print the deliveries as a JSON array.")
        var json = false

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let queue = DeliveryQueue(database: try await database.connect())
            if attempts { return try await listAttempts(queue) }
            let found: [DeliveryStatus]
            do { found = try await queue.deliveries(endpoint: endpoint, .allOrganizations, limit: limit) } catch { throw commandFailure(error) }
            if json { return try printJSON(found) }
            let rows = found.map { delivery in
                [String(delivery.id), delivery.endpointID, delivery.webhookID, delivery.eventType, delivery.state, String(delivery.attempts),
                 delivery.lastStatus.map(String.init) ?? "", delivery.lastLatencyMilliseconds.map { "\($0) ms" } ?? "",
                 Self.short(delivery.lastError ?? delivery.lastResponse ?? "")]
            }
            print(table([["id", "endpoint", "webhook-id", "event", "state", "attempts", "status", "latency", "error or response"]] + rows),
                  terminator: "")
        }

        private func listAttempts(_ queue: DeliveryQueue) async throws {
            let found: [DeliveryAttempt]
            do { found = try await queue.attempts(endpoint: endpoint, .allOrganizations, limit: limit) } catch { throw commandFailure(error) }
            if json { return try printJSON(found) }
            let rows = found.map { attempt in
                [String(attempt.deliveryID), String(attempt.attempt), timestamp(attempt.attemptedAt), attempt.outcome,
                 attempt.status.map(String.init) ?? "", attempt.latencyMilliseconds.map { "\($0) ms" } ?? "",
                 Self.short(attempt.error ?? attempt.response ?? "")]
            }
            print(table([["delivery", "attempt", "time", "outcome", "status", "latency", "error or response"]] + rows), terminator: "")
        }

        /// One line of at most 80 characters.
        static func short(_ text: String) -> String {
            let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
            return line.count > 80 ? line.prefix(79) + "…" : line
        }
    }

    struct Replay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send the events since a time again, with their own webhook-ids, to every subscribed endpoint (or one).")

        @Option(help: "ISO 8601 time (2026-11-23T10:00:00Z) or a date (2026-11-23, midnight UTC).")
        var since: String

        @Option(help: "Only to this endpoint.")
        var endpoint: UUID?

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            guard let start = Self.time(since) else {
                throw commandFailure(.usage, "--since \(since): not an ISO 8601 time or date (2026-11-23T10:00:00Z, 2026-11-23)")
            }
            let queue = DeliveryQueue(database: try await database.connect())
            let queued: Int
            do { queued = try await queue.replay(since: start, endpoint: endpoint, .allOrganizations) } catch { throw commandFailure(error) }
            print("\(queued) deliveries queued again; a running worker sends them")
        }

        static func time(_ text: String) -> Date? {
            if let time = try? Date(text, strategy: .iso8601) { return time }
            return try? Date(text + "T00:00:00Z", strategy: .iso8601)
        }
    }
}
