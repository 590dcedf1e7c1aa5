// swift-tools-version: 6.1
//
// Spotter: workout videos in, coaching reports out.
//
// The targets follow the data flow of an analysis:
//   decode (Media over CFFmpeg) → landmark (Landmarkers over CMediaPipe) → track (LandmarkTracks)
//   → rules (Rules: reps, faults, the report) → report pages (ReportPages)
//   → store (Store over Postgres over CLibPQ: jobs, reports, reps, faults, tracks, outbox)
//   → notify (Webhooks: endpoints, sealed secrets, signing; Transfer over CCurl: fetching videos, delivering webhooks)
// Uploads go to `Storage` (content-addressed files, signed URLs) through the API (`Server`).
// `Analysis` runs decode → landmark → rules for one input; `Worker` is the
// service that runs jobs from the store (analysis in a child process, fetching
// over Transfer); `Contracts` is what every module, the command line and an API
// share without dragging in any stage (failure kinds and safe messages, the
// command line's contract with the worker); `spotter` is the command line on top.
import PackageDescription

let package = Package(
    name: "Spotter",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "spotter", targets: ["spotter"]),
        .library(name: "Landmarkers", targets: ["Landmarkers"]),
        .library(name: "Media", targets: ["Media"]),
        .library(name: "LandmarkTracks", targets: ["LandmarkTracks"]),
        .library(name: "Rules", targets: ["Rules"]),
        .library(name: "SyntheticMotion", targets: ["SyntheticMotion"]),
        .library(name: "Postgres", targets: ["Postgres"]),
        .library(name: "Store", targets: ["Store"]),
        .library(name: "Transfer", targets: ["Transfer"]),
        .library(name: "Webhooks", targets: ["Webhooks"]),
        .library(name: "Storage", targets: ["Storage"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.0"),
    ],
    targets: [
        // MediaPipe Tasks C API (libmediapipe.so of the PyPI wheel mediapipe 1.2.2),
        // opened with dlopen at run time so that a missing engine is a clear error,
        // not a loader failure, and so that building needs no engine at all.
        .target(name: "CMediaPipe", linkerSettings: [.linkedLibrary("dl")]),

        // libav (FFmpeg 5.1 on Debian 12), and shims for its macros and log callback.
        .systemLibrary(
            name: "CFFmpeg", pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev"])]),
        .target(name: "CFFmpegShims", dependencies: ["CFFmpeg"]),

        // libcurl (7.88 on Debian 12), and shims for its variadic setopt and getinfo.
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(name: "CCurlShims", dependencies: ["CCurl"]),

        // HTTP(S) downloads and POSTs over libcurl, with limits and an address policy against SSRF.
        .target(name: "Transfer", dependencies: ["CCurl", "CCurlShims", "AtomicFiles", "Contracts", "BlockingWork"]),

        // What every module, the command line, the worker and an API share: failure kinds with
        // messages safe to show, and the command line's contract with the worker. No dependencies.
        .target(name: "Contracts"),

        // Blocking C work off Swift's cooperative pool: one documented strategy (BlockingPool.swift).
        .target(name: "BlockingWork"),

        // Files that appear whole or not at all: downloads and the command line's outputs.
        .target(name: "AtomicFiles", dependencies: ["Contracts"]),

        // Decode stage: video files and byte sources to upright RGB frames with exact timestamps.
        .target(name: "Media", dependencies: ["CFFmpeg", "CFFmpegShims", "Contracts", "BlockingWork"]),

        // Landmark stage: MediaPipe Pose and Hand Landmarker with the iOS Tasks API.
        .target(name: "Landmarkers", dependencies: ["CMediaPipe", "Contracts"]),

        // The `spotter.landmarks/v1` track format (contracts §2).
        .target(name: "LandmarkTracks", dependencies: ["Contracts"]),

        // Rules stage: exercise rules as data (Rules/*.yaml), scored on landmark tracks.
        .target(name: "Rules", dependencies: ["LandmarkTracks", "Contracts", .product(name: "Yams", package: "Yams")]),

        // Reports as self-contained HTML pages for coaches, with the key signal plotted.
        .target(name: "ReportPages", dependencies: ["Rules"]),

        // libpq (PostgreSQL 15 client on Debian 12), and a small Swift layer over it.
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .target(name: "Postgres", dependencies: ["CLibPQ", "Contracts"]),

        // Store stage: migrations, the job queue, analyses and their reps and faults, API keys (hashed) in PostgreSQL.
        .target(
            name: "Store",
            dependencies: ["Postgres", "Rules", "LandmarkTracks", "Contracts", .product(name: "Crypto", package: "swift-crypto")]),

        // Notify stage: webhook endpoints with sealed secrets, Standard Webhooks signing (swift-crypto).
        .target(
            name: "Webhooks",
            dependencies: [
                "Store", "Postgres", "Transfer", "Contracts", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]),

        // Uploaded videos and tracks by the hash of their bytes, and the signed, expiring URLs
        // through which workers on any host fetch them from the API.
        .target(
            name: "Storage",
            dependencies: ["AtomicFiles", "Contracts", .product(name: "Crypto", package: "swift-crypto")]),

        // Starting the analysis child: glibc's GNU extensions, which Swift's Glibc module hides.
        .target(name: "CSpawnShims"),

        // One analysis: decode → landmark → rules, for a video, an image or a track.
        .target(name: "Analysis", dependencies: ["Media", "Landmarkers", "LandmarkTracks", "Rules", "Contracts", "BlockingWork"]),

        // The worker service: claims jobs, runs the analysis in a child process (`spotter
        // landmarks`), fetches sources, scores and stores. No decoder or engine in it.
        .target(
            name: "Worker",
            dependencies: [
                "LandmarkTracks", "Rules", "Postgres", "Store", "Storage", "Transfer", "Contracts", "BlockingWork", "CSpawnShims",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),

        // The HTTP API (contracts §6): the store, the rules and the report pages behind API
        // keys; no decoder, engine or libcurl (videos are fetched and analysed by workers).
        .target(
            name: "Server",
            dependencies: [
                "Store", "Storage", "Rules", "ReportPages", "Postgres", "Contracts", "LandmarkTracks", "BlockingWork",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("openapi.json")]),

        // What the API takes from the stages it must not link: the notify stage's endpoints
        // (`/v1/webhooks`) and the transfer stage's URL checks (`video_url`), so that the server
        // itself links no libcurl.
        .target(name: "APIAdapters", dependencies: ["Server", "Webhooks", "Store", "Postgres", "Transfer"]),

        .executableTarget(
            name: "spotter",
            dependencies: [
                "Analysis", "Worker", "Webhooks", "Server", "APIAdapters", "Storage", "Contracts", "Media", "Landmarkers", "Rules", "ReportPages", "Postgres", "Store", "Transfer",
                "AtomicFiles", "BlockingWork", "CSpawnShims",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        .target(name: "TestSupport", dependencies: ["Landmarkers", "CFFmpeg", "Postgres", "Store", "BlockingWork"], path: "Tests/TestSupport"),
        // Synthetic workouts with ground truth, for the rules' accuracy tests and benchmark.
        .target(name: "SyntheticMotion", dependencies: ["LandmarkTracks"], path: "Tests/SyntheticMotion"),
        // A second, independent generator of workouts with ground truth (shares no code with
        // SyntheticMotion): other bodies, stances, cameras and detector noise, for held-out accuracy.
        .target(name: "WorkoutSimulator", dependencies: ["LandmarkTracks"], path: "Tests/WorkoutSimulator"),
        .testTarget(
            name: "RulesTests", dependencies: ["Rules", "LandmarkTracks", "SyntheticMotion", "WorkoutSimulator"],
            exclude: ["Golden"]),
        .testTarget(
            name: "LandmarkersTests", dependencies: ["Landmarkers", "TestSupport"],
            resources: [.copy("Expectations")]),
        .testTarget(name: "LandmarkTracksTests", dependencies: ["LandmarkTracks"]),
        .testTarget(name: "ReportPagesTests", dependencies: ["ReportPages", "Rules", "LandmarkTracks", "SyntheticMotion"]),
        .testTarget(name: "MediaTests", dependencies: ["Media", "TestSupport"]),
        .testTarget(name: "TransferTests", dependencies: ["Transfer", "TestSupport"]),
        .testTarget(name: "WebhooksTests", dependencies: ["Webhooks", "Store", "Postgres", "Transfer", "TestSupport"]),
        .testTarget(
            name: "ServerTests",
            dependencies: [
                "Server", "APIAdapters", "Webhooks", "Transfer", "Store", "Storage", "Postgres", "Rules", "LandmarkTracks",
                "SyntheticMotion", "TestSupport", .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .testTarget(
            name: "AnalysisTests", dependencies: ["Analysis", "Contracts", "Media", "Landmarkers", "LandmarkTracks", "Rules", "TestSupport"],
            resources: [.copy("Expectations")]),
        .testTarget(name: "PostgresTests", dependencies: ["Postgres", "Contracts", "TestSupport"]),
        .testTarget(
            name: "StoreTests", dependencies: ["Store", "Contracts", "Postgres", "Rules", "LandmarkTracks", "SyntheticMotion", "TestSupport"]),
        .testTarget(
            name: "WorkerTests",
            dependencies: [
                "Worker", "Contracts", "Store", "Postgres", "Rules", "LandmarkTracks", "SyntheticMotion", "TestSupport", "spotter",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        .testTarget(name: "SpotterCommandTests", dependencies: ["spotter", "Contracts", "TestSupport", "SyntheticMotion", "LandmarkTracks", "Postgres"]),
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport"]),
        .testTarget(name: "BlockingWorkTests", dependencies: ["BlockingWork"]),
    ],
    swiftLanguageModes: [.v6]
)
