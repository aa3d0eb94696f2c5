// swift-tools-version:6.1
import PackageDescription

// AwareBench: an emulated Wi-Fi Aware accessory (`accessory-emu`) and a conformance
// runner that plays the phone (`aware-conform`). The layers and their rules are in
// docs/reference/architecture.md: arrows point down only.
let package = Package(
    name: "AwareBench",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "accessory-emu", targets: ["accessory-emu"]),
        .executable(name: "aware-conform", targets: ["aware-conform"]),
        .library(name: "AwareCore", targets: ["AwareCore"]),
        .library(name: "AwareWire", targets: ["AwareWire"]),
        // For the libFuzzer package in Fuzz/ (docs/guides/fuzzing.md), which drives these from outside.
        // AwareFuzzing is a testing product: frame and capture corpora, mutators, the decoder
        // robustness driver. Nothing that ships imports it.
        .library(name: "AwareFuzzing", targets: ["AwareFuzzing"]),
        .library(name: "AwareProtocol", targets: ["AwareProtocol"]),
        .library(name: "AwareRadio", targets: ["AwareRadio"]),
        .library(name: "AccessoryKit", targets: ["AccessoryKit"]),
        .library(name: "AwareDevice", targets: ["AwareDevice"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // C: system libraries, each behind a small shim (platform-notes.md 2.2, 3.3).
        .systemLibrary(
            name: "CMbedCrypto",
            providers: [.apt(["libmbedtls-dev"])]
        ),
        .systemLibrary(
            name: "CNetlink",
            pkgConfig: "libnl-genl-3.0",
            providers: [.apt(["libnl-3-dev", "libnl-genl-3-dev"])]
        ),

        // The values every layer shares: addresses, time, radio I/O, the seeded generator, JSON.
        .target(name: "AwareCore"),
        // Bytes <-> values. No I/O, no state, never traps.
        .target(
            name: "AwareWire",
            dependencies: ["AwareCore", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // Keys, MICs, group arithmetic.
        .target(
            name: "AwareCrypto",
            dependencies: [
                "CMbedCrypto",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Sans-I/O protocol machines: no clock, no socket, no RNG.
        .target(name: "AwareProtocol", dependencies: ["AwareCore", "AwareWire", "AwareCrypto"]),
        // Where frames travel and time passes.
        .target(
            name: "AwareRadio",
            dependencies: ["AwareCore", "AwareWire", "CNetlink", .product(name: "Logging", package: "swift-log")]
        ),
        // Frames from captures and bytes, decoded for people and JSON; the passive capture analyzer.
        .target(name: "AwareAnalysis", dependencies: ["AwareCore", "AwareWire", "AwareProtocol"]),
        // Testing only: the robustness corpus and mutators that the fuzz targets, aware-bench and
        // the robustness tests share.
        .target(name: "AwareFuzzing", dependencies: ["AwareCore", "AwareWire", "AwareAnalysis"]),
        // A NAN device: the protocol machines driven over an air. Both the accessory and the
        // phone role are one.
        .target(
            name: "AwareDevice",
            dependencies: [
                "AwareCore", "AwareWire", "AwareCrypto", "AwareProtocol", "AwareRadio",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The accessory.
        .target(
            name: "AccessoryKit",
            dependencies: [
                "AwareCore", "AwareWire", "AwareCrypto", "AwareProtocol", "AwareRadio", "AwareDevice",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The phone role, the catalogue, the runner and its reports. Never imports AccessoryKit.
        .target(
            name: "ConformanceKit",
            dependencies: [
                "AwareCore", "AwareWire", "AwareCrypto", "AwareProtocol", "AwareRadio", "AwareAnalysis", "AwareDevice",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What both command-line programs share: exit codes, standard error, buffered output.
        .target(
            name: "AwareCommandLine",
            dependencies: [
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "accessory-emu",
            dependencies: [
                "AwareCore", "AwareWire", "AwareRadio", "AccessoryKit", "AwareCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "aware-conform",
            dependencies: [
                "AwareCore", "AwareWire", "AwareCrypto", "AwareProtocol", "AwareRadio", "AwareAnalysis", "AwareDevice",
                "AccessoryKit", "ConformanceKit", "AwareCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Benchmarks and the release-mode robustness run (not tests: nothing here is timed in a test).
        .executableTarget(
            name: "aware-bench",
            dependencies: [
                "AwareCore", "AwareWire", "AwareFuzzing", "AwareCrypto", "AwareProtocol", "AwareRadio", "AwareDevice",
                "AccessoryKit", "ConformanceKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/aware-bench"
        ),

        // What several test targets share: hex literals, the external judges (jsonschema, tshark).
        .target(name: "AwareTestSupport", path: "Tests/AwareTestSupport"),
        .testTarget(name: "AwareCoreTests", dependencies: ["AwareCore"]),
        .testTarget(
            name: "AwareWireTests",
            dependencies: ["AwareCore", "AwareWire", "AwareFuzzing", "AwareTestSupport"]
        ),
        .testTarget(
            name: "AwareCryptoTests",
            dependencies: ["AwareCrypto", "AwareTestSupport", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .testTarget(
            name: "AwareProtocolTests",
            dependencies: [
                "AwareCore", "AwareWire", "AwareFuzzing", "AwareCrypto", "AwareProtocol", "AwareTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "AwareDeviceTests",
            dependencies: [
                "AwareCore", "AwareWire", "AwareFuzzing", "AwareCrypto", "AwareProtocol", "AwareRadio", "AwareDevice",
            ]
        ),
        .testTarget(
            name: "AwareRadioTests",
            dependencies: [
                "AwareCore", "AwareWire", "AwareRadio", "CNetlink", "AwareTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "AwareAnalysisTests",
            dependencies: ["AwareCore", "AwareWire", "AwareAnalysis", "ConformanceKit", "AwareTestSupport"]
        ),
        .testTarget(
            name: "AccessoryKitTests",
            dependencies: [
                "AwareCore", "AwareWire", "AwareCrypto", "AwareProtocol", "AwareRadio", "AwareDevice", "AccessoryKit",
                "ConformanceKit", "AwareTestSupport",
            ]
        ),
        .testTarget(
            name: "ConformanceKitTests",
            dependencies: [
                "AwareCore", "AwareWire", "AwareCrypto", "AwareProtocol", "AwareRadio", "AwareDevice", "ConformanceKit",
                "AwareTestSupport",
            ]
        ),
        .testTarget(name: "EndToEndTests", dependencies: ["AwareTestSupport"]),
    ]
)
