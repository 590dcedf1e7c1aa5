import Logging
import Synchronization

/// Log lines kept in memory with their metadata, for tests that read what a server logs.
final class LogCapture: Sendable {
    let lines = Mutex<[String]>([])

    var logger: Logger {
        Logger(label: "test-api") { _ in Handler(capture: self) }
    }

    struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            let line = "\(event.message) " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            capture.lines.withLock { $0.append(line) }
        }
    }
}
