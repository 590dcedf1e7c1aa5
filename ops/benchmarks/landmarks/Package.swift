// swift-tools-version: 6.1
// Measures Spotter's landmarkers for ops/bench; not part of the product build.
import PackageDescription

let package = Package(
    name: "LandmarkerBenchmark",
    platforms: [.macOS(.v15)],
    // `Spotter` links to the repository root, so the package is named Spotter wherever the clone is.
    dependencies: [.package(path: "Spotter")],
    targets: [
        .executableTarget(
            name: "LandmarkerBenchmark",
            dependencies: [.product(name: "Landmarkers", package: "Spotter")]),
    ],
    swiftLanguageModes: [.v6]
)
