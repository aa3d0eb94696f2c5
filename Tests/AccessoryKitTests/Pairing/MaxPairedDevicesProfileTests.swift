import Foundation
import Testing

@testable import AccessoryKit

/// `pairing.maxPairedDevices`: 1-64, default 8.
@Suite struct MaxPairedDevicesProfileTests {
    static func load(_ pairing: String) throws(ProfileError) -> AccessoryProfile {
        let text = """
            {"device": {"vendorName": "V", "modelName": "M", "pairingName": "P"},
             "services": [{"name": "_drone-service._udp", "publishType": "both"}], "pairing": \(pairing)}
            """
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "awb-cap-\(UUID().uuidString.prefix(8)).json"
        ).path
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try ProfileLoader.load(path: path)
    }

    @Test func theDefaultIsEight() throws {
        #expect(try Self.load("{}").pairing?.maxPairedDevices == 8)
        #expect(PairingSettings().maxPairedDevices == 8)
    }

    @Test(arguments: [1, 64])
    func theEndsOfTheRangeLoad(_ cap: Int) throws {
        #expect(try Self.load("{\"maxPairedDevices\": \(cap)}").pairing?.maxPairedDevices == cap)
    }

    @Test(arguments: ["0", "65", "8.5", "\"8\""])
    func outsideTheRangeIsRefusedAtItsPath(_ value: String) {
        do {
            _ = try Self.load("{\"maxPairedDevices\": \(value)}")
            Issue.record("\(value) loaded")
        } catch {
            let issues = error.issues.filter { $0.path == "pairing.maxPairedDevices" }
            #expect(issues.count == 1, "\(error.issues)")
        }
    }
}
