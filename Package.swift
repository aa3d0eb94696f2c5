// swift-tools-version:6.1
import PackageDescription

// AwareBench: an emulated Wi-Fi Aware accessory (`accessory-emu`) and a conformance
// runner that plays the phone (`aware-conform`). The layers and their rules are in
// ARCHITECTURE.md: arrows point down only.
let package = Package(
    name: "AwareBench",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "accessory-emu", targets: ["accessory-emu"]),
        .executable(name: "aware-conform", targets: ["aware-conform"]),
        .library(name: "AwareWire", targets: ["AwareWire"]),
        // For the libFuzzer package in Fuzz/ (docs/fuzzing.md), which drives these from outside.
        .library(name: "AwareProtocol", targets: ["AwareProtocol"]),
        .library(name: "AwareRadio", targets: ["AwareRadio"]),
        .library(name: "AccessoryKit", targets: ["AccessoryKit"]),
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

        // Bytes <-> values. No I/O, no state, never traps.
        .target(
            name: "AwareWire",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")]
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
        .target(name: "AwareProtocol", dependencies: ["AwareWire", "AwareCrypto"]),
        // Where frames travel and time passes.
        .target(name: "AwareRadio", dependencies: ["AwareWire", "CNetlink"]),
        // A NAN device: the protocol machines driven over an air. Both the accessory and the
        // phone role are one.
        .target(name: "AwareDevice", dependencies: ["AwareProtocol", "AwareRadio", "AwareWire", "AwareCrypto"]),
        // The accessory.
        .target(
            name: "AccessoryKit",
            dependencies: ["AwareWire", "AwareProtocol", "AwareRadio", "AwareDevice"]
        ),
        // The phone role, the catalogue, the runner and its reports. Never imports AccessoryKit.
        .target(
            name: "ConformanceKit",
            dependencies: ["AwareWire", "AwareProtocol", "AwareRadio", "AwareDevice"]
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
                "AccessoryKit",
                "AwareDevice",
                "AwareCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "aware-conform",
            dependencies: [
                "ConformanceKit",
                "AccessoryKit",
                "AwareCrypto",
                "AwareDevice",
                "AwareCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Benchmarks and the release-mode robustness run (not tests: nothing here is timed in a test).
        .executableTarget(
            name: "aware-bench",
            dependencies: [
                "AwareWire",
                "AwareRadio",
                "AwareProtocol",
                "AwareCrypto",
                "AwareDevice",
                "AccessoryKit",
                "ConformanceKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/aware-bench"
        ),

        // What several test targets share: hex literals, the external judges (jsonschema, tshark).
        .target(name: "AwareTestSupport", path: "Tests/AwareTestSupport"),
        .testTarget(name: "AwareWireTests", dependencies: ["AwareWire", "AwareTestSupport"]),
        .testTarget(
            name: "AwareCryptoTests",
            dependencies: [
                "AwareCrypto", "CMbedCrypto", "AwareTestSupport", .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "AwareProtocolTests",
            dependencies: [
                "AwareProtocol", "AwareCrypto", "AwareTestSupport", .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(name: "AwareDeviceTests", dependencies: ["AwareDevice", "AwareCrypto"]),
        .testTarget(name: "AwareRadioTests", dependencies: ["AwareRadio", "CNetlink", "AwareTestSupport"]),
        .testTarget(name: "AccessoryKitTests", dependencies: ["AccessoryKit", "ConformanceKit", "AwareTestSupport"]),
        .testTarget(name: "ConformanceKitTests", dependencies: ["ConformanceKit", "AwareTestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["AwareTestSupport"]),
    ]
)
