import Foundation
import Prometheus
import Store

/// `/metrics` in Prometheus' text format: requests by route and status with
/// latency histograms (counted as they are served), and, read from the
/// database at each scrape, jobs by state (queue depth and analyses by
/// outcome), the oldest queued job's age and webhook deliveries by state.
final class ServerMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()
    private static let latencyBuckets: [Duration] = [
        .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(20), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
    ]

    /// Counts a served request.
    func served(route: String, status: Int, after duration: Duration) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(namespace: "spotter", metricName: "http_requests", unitName: "total", helpText: "HTTP requests by route and status"),
            labels: [("route", route), ("status", String(status))]
        ).increment()
        registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(namespace: "spotter", metricName: "http_request_duration", unitName: "seconds", helpText: "HTTP request latency by route"),
            labels: [("route", route)], buckets: Self.latencyBuckets
        ).record(duration)
    }

    /// The text a scrape gets, with the database's figures as of now.
    func exposition(_ statistics: QueueStatistics) -> String {
        for (state, count) in statistics.jobs {
            registry.makeGauge(
                descriptor: MetricNameDescriptor(namespace: "spotter", metricName: "jobs", helpText: "Analysis jobs by state: queue depth (queued, running) and outcomes"),
                labels: [("state", state.rawValue)]
            ).set(to: Double(count))
        }
        registry.makeGauge(
            descriptor: MetricNameDescriptor(namespace: "spotter", metricName: "oldest_queued_job_age", unitName: "seconds", helpText: "Age of the oldest queued job")
        ).set(to: statistics.oldestQueuedSeconds)
        for (state, count) in statistics.deliveries {
            registry.makeGauge(
                descriptor: MetricNameDescriptor(namespace: "spotter", metricName: "webhook_deliveries", helpText: "Webhook deliveries by state"),
                labels: [("state", state)]
            ).set(to: Double(count))
        }
        return registry.emitToString()
    }
}
