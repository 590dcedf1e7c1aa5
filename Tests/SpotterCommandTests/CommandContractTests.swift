import Contracts
import Testing

@testable import spotter

/// The worker and the command line agree through `CommandContract`: the
/// `landmarks` command line the worker builds parses as the command defines it,
/// and failures exit with the statuses the worker reads back.
@Suite("The command-line contract with the worker")
struct CommandContractTests {
    @Test("the worker's landmarks command line means what it says", arguments: [(false, "cpu", 1), (true, "gpu", 4)])
    func landmarksArguments(hands: Bool, delegate: String, threads: Int) throws {
        let arguments = CommandContract.landmarksArguments(
            video: "/jobs/1/source", trackPath: "/jobs/1/track.jsonl", warningsPath: "/jobs/1/warnings.json", maxFrameRate: 30,
            hands: hands, delegate: delegate, threads: threads)
        #expect(arguments.first == Spotter.Landmarks._commandName)
        let command = try Spotter.Landmarks.parse(Array(arguments.dropFirst()))
        #expect(command.input == "/jobs/1/source")
        #expect(command.out == "/jobs/1/track.jsonl" && command.warningsOut == "/jobs/1/warnings.json")
        #expect(command.maxFps == 30 && command.fps == nil && command.hands == hands && command.delegate.rawValue == delegate)
        #expect(command.handsNearWrists == hands)
        #expect(command.threads == threads)
    }

    @Test("usage and bad input are permanent failures for the worker; the rest may pass on a retry")
    func exitStatuses() {
        let permanent = [FailureKind.usage, .badInput].map(CommandContract.exitStatus(of:))
        let transient = [FailureKind.unavailable, .internalError, .cannotCreate].map(CommandContract.exitStatus(of:))
        #expect(permanent == [64, 65] && transient == [69, 70, 73])
        #expect(permanent.allSatisfy(CommandContract.isPermanent(exitStatus:)))
        #expect(!transient.contains(where: CommandContract.isPermanent(exitStatus:)))
    }
}
