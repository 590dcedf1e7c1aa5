// usage: WebhookBenchmark DATABASE_URL MIGRATIONS_DIR RECEIVER_URL [EVENTS] [WORKERS,…]
// Measures webhook delivery on a real PostgreSQL server to a receiver on
// loopback: for each number of workers (a dispatcher each, with its own
// connections, as every `spotter worker` runs one), EVENTS outbox events for
// one endpoint are fanned out, claimed, signed, POSTed and recorded (every
// attempt) until none is left. Prints one JSON object per worker count:
// deliveries/s, and checks every delivery was delivered exactly once. A first,
// unmeasured round with the most workers warms everything up.
import Foundation
import Logging
import Postgres
import Store
import Transfer
import Webhooks

let arguments = CommandLine.arguments
guard arguments.count >= 4 else {
    FileHandle.standardError.write(Data("usage: WebhookBenchmark DATABASE_URL MIGRATIONS_DIR RECEIVER_URL [EVENTS] [WORKERS,…]\n".utf8))
    exit(64)
}
let url = arguments[1], receiver = arguments[3]
let eventCount = arguments.count > 4 ? Int(arguments[4]) ?? 2000 : 2000
let workerCounts = arguments.count > 5 ? arguments[5].split(separator: ",").compactMap { Int($0) } : [1, 4]
let clock = ContinuousClock()
let sealing = try SecretSealing(base64: Data((0..<32).map { UInt8($0) }).base64EncodedString())
let loopback = AddressPolicy(allowing: [.loopback])

let setup = try await PostgresConnection.connect(to: url)
_ = try await Migrator(files: MigrationFile.all(in: arguments[2])).migrate(setup)

// A first, unmeasured round warms the server, the receiver and the connections.
for (round, workers) in ([(0, workerCounts.max() ?? 1)] + workerCounts.map { (1, $0) }) {
    _ = try await setup.query("TRUNCATE outbox_events, webhook_endpoints CASCADE")
    let organization = try await Organization.create(name: "Benchmark \(workers)", on: setup)
    let target = try TargetURL(receiver, allowingHTTP: true, policy: loopback)
    _ = try await WebhookEndpoints(database: setup, sealing: sealing).add(target, eventTypes: [], organizationID: organization.id)
    _ = try await setup.query(
        """
        INSERT INTO outbox_events (event_id, organization_id, event_type, payload)
        SELECT 'msg_bench_' || n, $1, 'analysis.completed',
               jsonb_build_object('session_id', gen_random_uuid(), 'job_id', n, 'summary', jsonb_build_object('rep_count', 5))
        FROM generate_series(1, $2) AS n
        """, [organization.id, eventCount])
    var dispatchers: [WebhookDispatcher] = []
    for _ in 0..<workers {
        let own = try await PostgresConnection.connect(to: url)
        var configuration = WebhookDispatcher.Configuration()
        configuration.perEndpoint = 64
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        dispatchers.append(WebhookDispatcher(
            queue: DeliveryQueue(database: own), endpoints: WebhookEndpoints(database: own, sealing: sealing),
            transfer: HTTPTransfer(addressPolicy: loopback), configuration: configuration, logger: logger))
    }
    let start = clock.now
    try await withThrowingTaskGroup(of: Void.self) { group in
        for dispatcher in dispatchers {
            group.addTask {
                while true {
                    if try await dispatcher.dispatchOnce() > 0 { continue }
                    if try await pending() == 0 { return }
                }
            }
        }
        try await group.waitForAll()
    }
    let elapsed = clock.now - start
    let delivered: Int = try await setup.query(
        "SELECT count(*)::int AS count FROM webhook_deliveries WHERE state = 'delivered' AND attempts = 1")[0].decode("count")
    guard delivered == eventCount else { fatalError("\(delivered) of \(eventCount) delivered once") }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    if round == 0 { continue }
    print(#"{"workers":\#(workers),"deliveries":\#(eventCount),"per_s":\#(Int(Double(eventCount) / seconds))}"#)
}

/// Deliveries or events not yet finished (another dispatcher may still hold some).
func pending() async throws -> Int {
    try await setup.query(
        """
        SELECT ((SELECT count(*) FROM outbox_events WHERE dispatched_at IS NULL)
              + (SELECT count(*) FROM webhook_deliveries WHERE state IN ('pending', 'delivering')))::int AS count
        """)[0].decode("count")
}
