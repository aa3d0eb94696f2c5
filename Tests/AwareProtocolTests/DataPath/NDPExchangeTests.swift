import AwareCrypto
import AwareWire
import Testing

@testable import AwareProtocol

/// Whole exchanges between our initiator and our responder over a lossless wire
/// (nan-wire-reference.md 4.1, 4.2).
@Suite struct NDPExchangeTests {
    private func expectEstablished(
        _ exchange: NDPTest.Exchange,
        suite: NANSecurityCipherSuite?,
        subtypes: [NAFSubtype],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let initiator = try #require(exchange.initiatorLink, sourceLocation: sourceLocation)
        let responder = try #require(exchange.responderLink, sourceLocation: sourceLocation)
        #expect(initiator.security == suite, sourceLocation: sourceLocation)
        #expect(responder.security == suite, sourceLocation: sourceLocation)
        #expect(initiator.tk == responder.tk, sourceLocation: sourceLocation)
        #expect(
            initiator.tk.count == (suite.map { $0.dataCipher.temporalKeyLength } ?? 0),
            sourceLocation: sourceLocation
        )
        #expect(initiator.id == NDPLink.ID(peerNMI: NDPTest.accessoryNMI, ndpID: 1), sourceLocation: sourceLocation)
        #expect(responder.id == NDPLink.ID(peerNMI: NDPTest.phoneNMI, ndpID: 1), sourceLocation: sourceLocation)
        #expect(initiator.localNDI == NDPTest.phoneNDI && initiator.peerNDI == NDPTest.accessoryNDI)
        #expect(responder.localNDI == NDPTest.accessoryNDI && responder.peerNDI == NDPTest.phoneNDI)
        #expect(initiator.schedule.slots == responder.schedule.slots, sourceLocation: sourceLocation)
        #expect(initiator.peerInterfaceIdentifier == NDPTest.accessoryInterfaceID, sourceLocation: sourceLocation)
        #expect(responder.peerInterfaceIdentifier == NDPTest.phoneInterfaceID, sourceLocation: sourceLocation)
        #expect(exchange.frames.map(\.frame.subtype) == subtypes, sourceLocation: sourceLocation)
    }

    private static let secureSubtypes: [NAFSubtype] = [
        .dataPathRequest, .dataPathResponse, .dataPathConfirm, .dataPathKeyInstallment,
    ]

    @Test(arguments: [NANSecurityCipherSuite.ncsPKPASN128, .ncsPKPASN256])
    func pairedPeers(suite: NANSecurityCipherSuite) throws {
        let exchange = NDPTest.exchange(
            NDPTest.initiator(security: .pairing(ndPMK: NDPTest.ndPMK, suite: suite)),
            NDPTest.responder(credentials: [NDPTest.phoneNMI: .pairing(ndPMK: NDPTest.ndPMK, suite: suite)])
        )
        try expectEstablished(exchange, suite: suite, subtypes: Self.secureSubtypes)
        // Paired peers: category 9, which the Key MICs cover (1.1, 3.8).
        #expect(exchange.frames.allSatisfy { $0.frame.category == .protectedDualOfPublicAction })
        #expect(exchange.initiatorLink?.cipher == (suite == .ncsPKPASN128 ? .ccmp128 : .gcmp256))
    }

    /// CSID 1 with a passphrase: both derive the ND-PMK with the publisher NMI and service ID
    /// in the salt (4.2); the responder holds it as its service credential.
    @Test func passphraseCSID1() throws {
        let security = NDPSecurity.passphrase("drone pass 2026", suite: .ncsSK128)
        let exchange = NDPTest.exchange(
            NDPTest.initiator(security: security),
            NDPTest.responder(credentials: [:], defaultCredential: security)
        )
        try expectEstablished(exchange, suite: .ncsSK128, subtypes: Self.secureSubtypes)
        #expect(exchange.frames.allSatisfy { $0.frame.category == .publicAction })
        let expectedPMK = try NDPMK.fromPassphrase(
            "drone pass 2026",
            suite: .ncsSK128,
            serviceID: NDPTest.serviceID.octets,
            publisherNMI: NDPTest.accessoryNMI.octets
        )
        let ptk = try NDPPTK.derive(
            pmk: expectedPMK,
            initiatorNDI: NDPTest.phoneNDI.octets,
            responderNDI: NDPTest.accessoryNDI.octets,
            iNonce: NDPTest.iNonce,
            rNonce: NDPTest.rNonce,
            suite: .ncsSK128
        )
        #expect(exchange.initiatorLink?.tk == ptk.tk)
    }

    @Test func pmkCSID2() throws {
        let pmk = [UInt8](repeating: 0xC3, count: 32)
        let exchange = NDPTest.exchange(
            NDPTest.initiator(security: .pmk(pmk, suite: .ncsSK256)),
            NDPTest.responder(credentials: [NDPTest.phoneNMI: .pmk(pmk, suite: .ncsSK256)])
        )
        try expectEstablished(exchange, suite: .ncsSK256, subtypes: Self.secureSubtypes)
        #expect(exchange.initiatorLink?.cipher == .gcmp256)
    }

    /// Open with Confirm Required: Request, Response Continued, Confirm Accepted (4.1).
    @Test func openWhenAllowed() throws {
        let exchange = NDPTest.exchange(
            NDPTest.initiator(security: .open),
            NDPTest.responder(policy: NDPResponderPolicy(requiresSecurity: false))
        )
        try expectEstablished(exchange, suite: nil, subtypes: [.dataPathRequest, .dataPathResponse, .dataPathConfirm])
        let confirm = try #require(NDPMessage(exchange.frames[2].frame))
        #expect(confirm.common.status == .accepted)
        #expect(!confirm.securityPresent && confirm.sharedKey == nil && confirm.cipherSuites == nil)
    }

    /// Open without Confirm Required, NDP attribute instead of NDPE: the Response is Accepted
    /// and ends the exchange.
    @Test func openTwoFramesWithNDPAttribute() throws {
        let exchange = NDPTest.exchange(
            NDPTest.initiator(security: .open, usesNDPE: false, confirmRequired: false),
            NDPTest.responder(policy: NDPResponderPolicy(requiresSecurity: false))
        )
        let link = try #require(exchange.initiatorLink)
        #expect(exchange.responderLink == link.responderView)
        #expect(exchange.frames.map(\.frame.subtype) == [.dataPathRequest, .dataPathResponse])
        #expect(exchange.frames.allSatisfy { $0.frame.attributes.contains { $0.id == .ndp } })
        #expect(!exchange.frames.contains { $0.frame.attributes.contains { $0.id == .ndpExtension } })
        #expect(link.peerInterfaceIdentifier == nil)
    }

    /// The key descriptors of a whole exchange follow the table of 4.2.
    @Test func keyDescriptorsFollowTheTable() throws {
        let exchange = NDPTest.exchange(NDPTest.initiator(), NDPTest.responder())
        let descriptors = exchange.frames.compactMap { NDPMessage($0.frame)?.keyDescriptor(suite: .ncsPKPASN128) }
        #expect(descriptors.map(\.keyInformation.rawValue) == [0x0088, 0x0108, 0x03C8, 0x0348])
        #expect(descriptors.map(\.replayCounter) == [1, 1, 2, 2])
        #expect(descriptors.map(\.nonce) == [NDPTest.iNonce, NDPTest.rNonce, NDPTest.iNonce, NDPTest.rNonce])
        #expect(descriptors[0].mic == [UInt8](repeating: 0, count: 16))
        let statuses = exchange.frames.compactMap { NDPMessage($0.frame) }.map {
            [$0.common.type.code, $0.common.status.code]
        }
        #expect(statuses == [[0, 0], [1, 0], [2, 0], [3, 1]])
    }
}

extension NDPLink {
    /// The same link as the other side sees it.
    var responderView: NDPLink {
        var view = self
        view.isInitiator.toggle()
        view.peerNMI = NDPTest.phoneNMI
        view.peerInterfaceIdentifier = nil
        view.peerQoS = nil
        return view
    }
}
