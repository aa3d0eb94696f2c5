// swift-tools-version:6.1
import PackageDescription

// libFuzzer targets for AwareBench (docs/guides/fuzzing.md). A package of its own so that the main
// package's plain builds never see sanitizer flags: `Fuzz/run` builds it with
// `-sanitize=fuzzer,address`, which instruments the main package's modules too.
let package = Package(
    name: "AwareBenchFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "AwareBench", path: "..")],
    targets: [
        // What the targets share: libFuzzer's driver, the frame-sequence input, seeds, the in-memory air.
        .target(name: "CLibFuzzer"),
        .target(
            name: "FuzzSupport",
            dependencies: [
                "CLibFuzzer",
                .product(name: "AwareCore", package: "AwareBench"),
                .product(name: "AwareWire", package: "AwareBench"),
                .product(name: "AwareRadio", package: "AwareBench"),
                .product(name: "AccessoryKit", package: "AwareBench"),
            ]
        ),
        .executableTarget(
            name: "fuzz-frame",
            dependencies: [
                "FuzzSupport",
                .product(name: "AwareWire", package: "AwareBench"),
                .product(name: "AwareFuzzing", package: "AwareBench"),
            ]
        ),
        .executableTarget(
            name: "fuzz-capture",
            dependencies: [
                "FuzzSupport",
                .product(name: "AwareWire", package: "AwareBench"),
                .product(name: "AwareFuzzing", package: "AwareBench"),
            ]
        ),
        .executableTarget(
            name: "fuzz-profile",
            dependencies: ["FuzzSupport", .product(name: "AccessoryKit", package: "AwareBench")]
        ),
        .executableTarget(
            name: "fuzz-control",
            dependencies: [
                "FuzzSupport",
                .product(name: "AccessoryKit", package: "AwareBench"),
                .product(name: "AwareWire", package: "AwareBench"),
            ]
        ),
        .executableTarget(
            name: "fuzz-state",
            dependencies: [
                "FuzzSupport",
                .product(name: "AccessoryKit", package: "AwareBench"),
                .product(name: "AwareCore", package: "AwareBench"),
                .product(name: "AwareDevice", package: "AwareBench"),
                .product(name: "AwareWire", package: "AwareBench"),
            ]
        ),
        .executableTarget(
            name: "fuzz-pasn",
            dependencies: [
                "FuzzSupport",
                .product(name: "AwareCore", package: "AwareBench"),
                .product(name: "AwareProtocol", package: "AwareBench"),
                .product(name: "AwareWire", package: "AwareBench"),
            ]
        ),
        .executableTarget(
            name: "fuzz-accessory",
            dependencies: [
                "FuzzSupport",
                .product(name: "AwareCore", package: "AwareBench"),
                .product(name: "AwareFuzzing", package: "AwareBench"),
                .product(name: "AccessoryKit", package: "AwareBench"),
                .product(name: "AwareProtocol", package: "AwareBench"),
                .product(name: "AwareRadio", package: "AwareBench"),
                .product(name: "AwareWire", package: "AwareBench"),
            ]
        ),
    ]
)
