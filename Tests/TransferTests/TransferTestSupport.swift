import Foundation
import TestSupport
import Testing
import Transfer

/// A directory of its own for one test's downloads.
struct DownloadDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("spotter-transfer-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { "\(path)/\(name)" }

    /// The names in the directory, hidden ones included.
    var contents: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: file(name))))
    }
}

/// `count` reproducible pseudo-random bytes.
func sampleBytes(_ count: Int, seed: UInt64 = 1) -> [UInt8] {
    var generator = SeededGenerator(seed: seed)
    return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
}

/// The `TransferError` that `body` throws; records an issue if it throws
/// anything else or nothing.
func transferError<T>(
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> T
) async -> TransferError? {
    do {
        _ = try await body()
        Issue.record("expected a TransferError, but the transfer succeeded", sourceLocation: sourceLocation)
    } catch let error as TransferError {
        return error
    } catch {
        Issue.record("expected a TransferError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
