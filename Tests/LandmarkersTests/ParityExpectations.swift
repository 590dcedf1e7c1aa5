import Foundation
import TestSupport
import Testing

/// `Expectations/mediapipe-python.json`, written by ops/parity/make-expectations:
/// what MediaPipe's Python API found on the same photos with the same bundles.
struct ParityExpectations: Decodable {
    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        struct Transform: Decodable, Sendable {
            var rot90: Int?
        }

        struct Options: Decodable, Sendable {
            var num_poses: Int?
            var num_hands: Int?
            var output_segmentation_masks: Bool?
            var rotation_degrees: Int?
            var rolls: [Int]?
        }

        struct Frame: Decodable, Sendable {
            var timestamp_ms: Int
            var poses: [Body]?
            var hands: [Body]?
            var masks: [Mask]?
        }

        struct Body: Decodable, Sendable {
            var landmarks: [[Double?]]
            var world: [[Double?]]
            var handedness: [Category]?
        }

        struct Category: Decodable, Sendable {
            var index: Int
            var score: Double
            var category_name: String?
            var display_name: String?
        }

        struct Mask: Decodable, Sendable {
            var width: Int
            var height: Int
            var mean: Double
            var samples: [[Double]]
        }

        var name: String
        var task: String
        var bundle: String
        var photo: String
        var transform: Transform?
        var options: Options
        var mode: String
        var frames: [Frame]

        var testDescription: String { name }
    }

    var bundles: [String: String]
    var photos: [String: String]
    var cases: [Case]

    static func load() throws -> ParityExpectations {
        let url = try #require(
            Bundle.module.url(forResource: "mediapipe-python", withExtension: "json", subdirectory: "Expectations"))
        return try JSONDecoder().decode(ParityExpectations.self, from: Data(contentsOf: url))
    }
}
