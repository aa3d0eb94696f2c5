import AwareTestSupport
import Foundation
import Testing

@testable import AccessoryKit

/// The TCP listener a shipped profile gets: each `_tcp` service's data-path port and the port of
/// each app part on a `_tcp` service (Profiles/camera.json: the stream's RTSP port 8554 and the
/// file service's 8080; Profiles/speaker.json: its control port 5005; the drone has none).
@Suite struct AccessoryTCPPortTests {
    static let expected: [String: Set<UInt16>] = ["camera": [8_554, 8_080], "speaker": [5_005], "drone": []]

    @Test(arguments: ["camera", "speaker", "drone"])
    func theListenerTakesTheTCPServicesPorts(profile: String) throws {
        let path = SessionFixture.directory.deletingLastPathComponent()
            .appendingPathComponent("Profiles/\(profile).json").path
        #expect(AccessoryDataService.tcpPorts(of: try ProfileLoader.load(path: path)) == Self.expected[profile])
    }
}
