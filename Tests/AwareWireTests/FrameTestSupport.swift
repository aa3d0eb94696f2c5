import AwareCore
import Foundation

@testable import AwareWire

/// Helpers shared by the Frame*, Element* and Capture* suites.
enum FrameTestSupport {
    /// Octets from a hex literal written in a test; a typo is a test bug, so it traps.
    static func hex(_ text: String) -> [UInt8] {
        guard let bytes = HexString.decode(text) else { fatalError("bad hex literal in test: \(text)") }
        return bytes
    }

    /// The 63-octet SDF of platform-notes.md 4, built by an independent reference computation.
    static let goldenSDF = hex(
        "d0000000516f9a010000020000000100506f9a01abcd10000409506f9a13030f008512ccdabe180100100568656c6c6f"
            + "0e0c000100000700506f9a02010203"
    )

    /// The repository's Fixtures directory.
    static var fixturesDirectory: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Fixtures")
    }

    static func fixture(_ path: String) throws -> Data {
        try Data(contentsOf: fixturesDirectory.appendingPathComponent(path))
    }

}
