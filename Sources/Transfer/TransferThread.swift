import BlockingWork
import Foundation

/// Runs `work` on the shared pool of blocking calls (`BlockingPool`), since a
/// libcurl transfer blocks its thread until it ends. Cancelling the calling
/// task sets the flag `work` is given.
func runOnTransferThread<Result: Sendable>(
    _ work: @escaping @Sendable (CancellationFlag) throws -> Result
) async throws -> Result {
    let cancellation = CancellationFlag()
    return try await withTaskCancellationHandler {
        try await BlockingPool.shared.run { try work(cancellation) }
    } onCancel: {
        cancellation.cancel()
    }
}
