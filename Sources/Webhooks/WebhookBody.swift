import Foundation

/// The JSON body of a delivery: `type`, `timestamp` (the event's time, ISO 8601)
/// and `data`: the event's payload (session, job, summary with rep count and
/// fault counts by code, or the failure's reason), the athlete and exercise of
/// the session, and the report's URL under `SPOTTER_PUBLIC_URL`. The same
/// bytes on every attempt, so that a retry is the same message.
enum WebhookBody {
    static func encode(_ delivery: ClaimedDelivery, publicURL: String?) throws -> Data {
        guard var data = try JSONSerialization.jsonObject(with: Data(delivery.payload.utf8)) as? [String: Any] else {
            throw WebhookError(.invalidEvent, "the payload of event \(delivery.webhookID) is not a JSON object")
        }
        data["type"] = nil
        data["athlete_id"] = delivery.athleteID.map { $0.uuidString.lowercased() as Any } ?? NSNull()
        if let exercise = delivery.exercise, data["exercise"] == nil { data["exercise"] = exercise }
        if let path = data["report_url"] as? String, let base = publicURL, !base.isEmpty {
            data["report_url"] = (base.hasSuffix("/") ? String(base.dropLast()) : base) + path
        }
        let body: [String: Any] = [
            "type": delivery.eventType, "timestamp": delivery.eventTime.formatted(.iso8601), "data": data,
        ]
        return try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys, .withoutEscapingSlashes])
    }
}
