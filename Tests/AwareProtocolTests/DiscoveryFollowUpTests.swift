import AwareWire
import Testing

@testable import AwareProtocol

/// Follow-ups both ways, with service info and extra attributes (nan-wire-reference.md 1.3, 2.4, 3.2).
@Suite struct DiscoveryFollowUpTests {
    typealias Support = DiscoveryTestSupport

    static let request = NANAttribute.pairingBootstrapping(
        PairingBootstrappingAttribute(dialogToken: 3, type: .request, status: .accepted, methods: .pinCodeKeypad)
    )

    private func followUps(_ wire: TestWire, _ station: Int) -> [FollowUpMessage] {
        wire.notifications.compactMap { entry in
            guard entry.station == station, case .followUpReceived(let message) = entry.notification else { return nil }
            return message
        }
    }

    @Test func aSubscriberAndAPublisherExchangeFollowUps() throws {
        var wire = Support.pair()
        wire.command(
            0,
            .publish(PublishConfiguration(serviceName: Support.service, solicitation: .unsolicited, instanceID: 4))
        )
        wire.command(1, .subscribe(SubscribeConfiguration(serviceName: Support.service, instanceID: 9)))
        wire.run(for: .milliseconds(150))
        let result = try #require(wire.results(1).first)
        let info = ServiceSpecificInfo(protocolType: .generic, info: [0x00, 0x02, 0x00, 0x1F, 0x90])
        wire.command(
            1,
            .transmitFollowUp(
                FollowUpRequest(
                    localInstanceID: 9,
                    peerAddress: result.publisherAddress,
                    peerInstanceID: result.publishInstanceID,
                    serviceInfo: info,
                    attributes: [Self.request],
                    token: 77
                )
            )
        )
        wire.settle()
        let sent = try #require(wire.frames(from: 1).last?.frame)
        #expect(sent.header.address1 == Support.publisher)
        #expect(sent.header.address3 == .nanNetworkID)
        let sda = try #require(Support.descriptor(of: sent))
        #expect(sda.type == .followUp && sda.instanceID == 9 && sda.requestorInstanceID == 4)
        let received = try #require(followUps(wire, 0).first)
        #expect(received.localInstanceID == 4)
        #expect(received.peerAddress == Support.subscriber)
        #expect(received.peerInstanceID == 9)
        #expect(received.serviceSpecificInfo == info)
        #expect(received.attributes.contains(Self.request))
        #expect(
            wire.notifications.contains {
                $0.station == 1 && $0.notification == .followUpTransmitted(token: 77, acknowledged: true)
            }
        )

        wire.command(
            0,
            .transmitFollowUp(FollowUpRequest(localInstanceID: 4, peerAddress: received.peerAddress, peerInstanceID: 9))
        )
        wire.settle()
        #expect(followUps(wire, 1).map(\.localInstanceID) == [9])
        #expect(followUps(wire, 1).first?.serviceSpecificInfo == nil)
    }

    @Test func aFollowUpForAnotherInstanceIsNotDelivered() {
        var wire = Support.pair()
        wire.command(0, .publish(PublishConfiguration(serviceName: Support.service, solicitation: .solicited)))
        wire.command(1, .subscribe(SubscribeConfiguration(serviceName: Support.service)))
        wire.command(
            1,
            .transmitFollowUp(
                FollowUpRequest(localInstanceID: 1, peerAddress: Support.publisher, peerInstanceID: 2, token: 5)
            )
        )
        wire.settle()
        #expect(followUps(wire, 0).isEmpty)
        // The frame was still acknowledged at the link layer.
        #expect(wire.notifications.contains { $0.notification == .followUpTransmitted(token: 5, acknowledged: true) })
        wire.command(
            1,
            .transmitFollowUp(
                FollowUpRequest(localInstanceID: 1, peerAddress: Support.stranger, peerInstanceID: 1, token: 6)
            )
        )
        wire.settle()
        #expect(wire.notifications.contains { $0.notification == .followUpTransmitted(token: 6, acknowledged: false) })
    }
}
