import Foundation
import Testing

@testable import AwareWire

@Suite struct ServiceIDTests {
    /// <repo>/Tests/AwareWireTests/ServiceIDTests.swift -> <repo>
    private static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private static func serviceIDVectors(at url: URL) throws -> [String: String] {
        let data = try Data(contentsOf: url)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(root["service_ids"] as? [String: String])
    }

    private static func checkVectors(_ vectors: [String: String]) {
        #expect(vectors.count >= 8)
        for (name, expected) in vectors {
            let id = ServiceID(serviceName: name)
            #expect(id.description == expected, "service name \(name)")
            #expect(ServiceID(hex: expected) == id, "service name \(name)")
        }
    }

    @Test func matchesEveryPublicVectorInFixtures() throws {
        let url = Self.repository.appendingPathComponent("Fixtures/public-vectors.json")
        Self.checkVectors(try Self.serviceIDVectors(at: url))
    }

    @Test func referenceVectors() {
        // nan-wire-reference.md 8.6 and the hostap session's service (transcript parameters).
        #expect(ServiceID(serviceName: "_test").octets == [0xF5, 0x1B, 0x9C, 0x48, 0x0C, 0x52])
        #expect(ServiceID(serviceName: "_drone-service._udp").description == "3425f17bda31")
        #expect(ServiceID(serviceName: "_Drone-Service._UDP").description == "3425f17bda31")
        #expect(ServiceID(serviceName: "NAN") == ServiceID(serviceName: "nan"))
        #expect(ServiceID(serviceName: "NAN").description != "0a481a8dc8a8")
    }

    @Test func onlyASCIILettersAreLowered() {
        // python3: sha256("cafÉ".encode()).hexdigest()[:12] = 39416d7e2c51 (É stays, C A F lowered);
        // sha256("café") = 850f7dc43910 would be Unicode lowering.
        #expect(ServiceID(serviceName: "CAFÉ").description == "39416d7e2c51")
        #expect(ServiceID(serviceName: "café").description == "850f7dc43910")
    }

    @Test func wireRoundTripAndErrors() throws {
        let id = try ServiceID(wireBytes: [0x34, 0x25, 0xF1, 0x7B, 0xDA, 0x31], structure: "test")
        #expect(id.wireBytes == [0x34, 0x25, 0xF1, 0x7B, 0xDA, 0x31])
        #expect(ServiceID([1, 2, 3]) == nil)
        #expect(ServiceID(hex: "3425f17bda") == nil)
        #expect(ServiceID.zero.description == "000000000000")
        #expect(throws: WireError(.truncated(need: 6, have: 5), structure: "test", field: "Service ID", offset: 0)) {
            _ = try ServiceID(wireBytes: [0x34, 0x25, 0xF1, 0x7B, 0xDA], structure: "test")
        }
    }
}
