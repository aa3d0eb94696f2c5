import AwareCrypto
import AwareWire
import Testing

@testable import AwareProtocol

/// The responder's policy and the exact reason codes it answers with (nan-wire-reference.md
/// 2.11, 4.1).
@Suite struct NDPRefusalTests {
    /// The responder sent one Response Rejected with `reason`; both sides fail with it.
    private func expectRejected(
        _ exchange: NDPTest.Exchange,
        reason: UInt8,
        responderKind: NDPFailure.Kind,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(exchange.initiatorLink == nil && exchange.responderLink == nil, sourceLocation: sourceLocation)
        #expect(exchange.frames.map(\.frame.subtype) == [.dataPathRequest, .dataPathResponse])
        let response = try #require(NDPMessage(exchange.frames[1].frame), sourceLocation: sourceLocation)
        #expect(response.common.type == .response && response.common.status == .rejected)
        #expect(response.common.reasonCode.rawValue == reason, sourceLocation: sourceLocation)
        // The rejection names the responder's NDI (control bit 4), so Wireshark, which reads the
        // field in every Response, decodes it (DataPathRunTests checks with tshark).
        #expect(response.common.ndpControl.contains(.responderNDIPresent))
        #expect(response.common.responderNDI == NDPTest.accessoryNDI)
        let responderFailure = try #require(exchange.responderFailure, sourceLocation: sourceLocation)
        #expect(responderFailure.kind == responderKind, sourceLocation: sourceLocation)
        #expect(responderFailure.reason?.rawValue == reason, sourceLocation: sourceLocation)
        let initiatorFailure = try #require(exchange.initiatorFailure, sourceLocation: sourceLocation)
        #expect(initiatorFailure.kind == .rejectedByPeer(NANReasonCode(reason)), sourceLocation: sourceLocation)
        #expect(initiatorFailure.reason?.rawValue == reason, sourceLocation: sourceLocation)
    }

    @Test func openRequestWhileSecurityIsRequired() throws {
        let exchange = NDPTest.exchange(NDPTest.initiator(security: .open), NDPTest.responder())
        try expectRejected(exchange, reason: 8, responderKind: .openRefused)
    }

    /// An unpaired phone asks for a secure data path: the accessory holds no ND-PMK for it.
    @Test func securePeerWithoutCredential() throws {
        let exchange = NDPTest.exchange(NDPTest.initiator(localNMI: NDPTest.strangerNMI), NDPTest.responder())
        try expectRejected(exchange, reason: 8, responderKind: .noCredential)
    }

    /// A credential is held, but the peer's ND-PMKID is of another ND-PMK (a stale pairing).
    @Test func ndPMKIDMatchesNone() throws {
        let other = [UInt8](repeating: 0x77, count: 32)
        let exchange = NDPTest.exchange(
            NDPTest.initiator(security: .pairing(ndPMK: other, suite: .ncsPKPASN128)),
            NDPTest.responder()
        )
        try expectRejected(exchange, reason: 8, responderKind: .noCredential)
    }

    @Test func suiteNotAllowed() throws {
        let exchange = NDPTest.exchange(
            NDPTest.initiator(security: .pairing(ndPMK: NDPTest.ndPMK, suite: .ncsPKPASN256)),
            NDPTest.responder(
                policy: NDPResponderPolicy(allowedSuites: [.ncsPKPASN128]),
                credentials: [NDPTest.phoneNMI: .pairing(ndPMK: NDPTest.ndPMK, suite: .ncsPKPASN256)]
            )
        )
        try expectRejected(exchange, reason: 8, responderKind: .suiteNotAllowed(csid: 8))
    }

    /// A pairing ND-PMK does not serve an NCS-SK request.
    @Test func credentialOfTheOtherFamily() throws {
        let exchange = NDPTest.exchange(
            NDPTest.initiator(security: .pmk(NDPTest.ndPMK, suite: .ncsSK128)),
            NDPTest.responder()
        )
        try expectRejected(exchange, reason: 8, responderKind: .noCredential)
    }

    /// The phone signals realtime; the accessory expects bulk (4.1 NDL QoS, PerformanceMode).
    @Test func modeMismatch() throws {
        let exchange = NDPTest.exchange(
            NDPTest.initiator(qos: PerformanceMode.realtime.ndlQoS),
            NDPTest.responder(policy: NDPResponderPolicy(expectedMode: .bulk))
        )
        try expectRejected(exchange, reason: 9, responderKind: .modeMismatch(expected: .bulk, requested: .realtime))
    }

    /// The fault switch lets the mismatch through; a matching mode passes anyway.
    @Test func toleratedModeMismatchAndMatchingMode() throws {
        let tolerated = NDPTest.exchange(
            NDPTest.initiator(qos: PerformanceMode.realtime.ndlQoS),
            NDPTest.responder(policy: NDPResponderPolicy(expectedMode: .bulk, toleratesModeMismatch: true))
        )
        #expect(tolerated.responderLink?.peerQoS == PerformanceMode.realtime.ndlQoS)
        let matching = NDPTest.exchange(
            NDPTest.initiator(qos: PerformanceMode.bulk.ndlQoS),
            NDPTest.responder(policy: NDPResponderPolicy(expectedMode: .bulk))
        )
        #expect(matching.responderLink != nil && matching.initiatorLink != nil)
        // No NDL QoS at all is bulk, the default mode.
        let silent = NDPTest.exchange(
            NDPTest.initiator(),
            NDPTest.responder(policy: NDPResponderPolicy(expectedMode: .realtime))
        )
        try expectRejected(silent, reason: 9, responderKind: .modeMismatch(expected: .realtime, requested: .bulk))
    }

    @Test func unknownPublishID() throws {
        var configuration = NDPTest.responder()
        configuration.serviceIDs = [2: NDPTest.serviceID]
        let exchange = NDPTest.exchange(NDPTest.initiator(), configuration)
        try expectRejected(exchange, reason: 10, responderKind: .unknownPublishID(1))
    }

    /// Frames that are not a Data Path Request make no responder.
    @Test func onlyARequestMakesAResponder() {
        let frame = NANActionFrame(subtype: .dataPathConfirm, attributes: [])
        #expect(
            NDPResponder(
                configuration: NDPTest.responder(),
                request: frame,
                transmitter: NDPTest.phoneNMI,
                nonce: NDPTest.rNonce,
                now: .zero
            ) == nil
        )
    }
}
