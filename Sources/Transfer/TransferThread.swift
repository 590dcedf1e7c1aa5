import Foundation

/// Runs `work` on a new thread, outside Swift's cooperative pool, since a
/// libcurl transfer blocks its thread until it ends. Cancelling the calling
/// task sets the flag `work` is given.
func runOnTransferThread<Result: Sendable>(
    _ work: @escaping @Sendable (CancellationFlag) throws -> Result
) async throws -> Result {
    let cancellation = CancellationFlag()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Swift.Result { try work(cancellation) }) }
            thread.name = "spotter-transfer"
            thread.start()
        }
    } onCancel: {
        cancellation.cancel()
    }
}
