// swift-tools-version: 6.1
// Measures Spotter's stages for ops/bench; not part of the product build.
import PackageDescription

let package = Package(
    name: "SpotterBenchmarks",
    platforms: [.macOS(.v15)],
    // `Spotter` links to the repository root, so the package is named Spotter wherever the clone is.
    dependencies: [
        .package(path: "Spotter"), .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
    ],
    targets: [
        .executableTarget(
            name: "LandmarkerBenchmark",
            dependencies: [.product(name: "Landmarkers", package: "Spotter")]),
        .executableTarget(
            name: "DecodeBenchmark",
            dependencies: [.product(name: "Media", package: "Spotter")]),
        .executableTarget(
            name: "ScoringBenchmark",
            dependencies: [
                .product(name: "Rules", package: "Spotter"), .product(name: "LandmarkTracks", package: "Spotter"),
                .product(name: "SyntheticMotion", package: "Spotter"),
            ]),
        .executableTarget(
            name: "QueueBenchmark",
            dependencies: [.product(name: "Store", package: "Spotter"), .product(name: "Postgres", package: "Spotter")]),
        .executableTarget(
            name: "WebhookBenchmark",
            dependencies: [
                .product(name: "Webhooks", package: "Spotter"), .product(name: "Store", package: "Spotter"),
                .product(name: "Postgres", package: "Spotter"), .product(name: "Transfer", package: "Spotter"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(
            name: "RescoreBenchmark",
            dependencies: [
                .product(name: "Store", package: "Spotter"), .product(name: "Postgres", package: "Spotter"),
                .product(name: "Rules", package: "Spotter"), .product(name: "LandmarkTracks", package: "Spotter"),
                .product(name: "SyntheticMotion", package: "Spotter"),
            ]),
        .executableTarget(
            name: "BareHTTPBenchmark",
            dependencies: [.product(name: "Hummingbird", package: "hummingbird")]),
    ],
    swiftLanguageModes: [.v6]
)
