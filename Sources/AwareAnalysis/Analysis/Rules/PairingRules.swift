import AwareCore
import AwareWire

/// A publisher that offers pairing says so twice: DCEA with Pairing Setup Enabled and an NPBA
/// of type Advertise listing its bootstrapping methods (hostap adds both, and reads both for a
/// discovery result). One without the other, an Advertise without any method, or a profile that
/// offers pairing but publishes without either, leaves the phone unable to bootstrap.
public struct PairingAdvertisementRule: AnalysisRule {
    public let id = "WA/CAP/NPBA-01"
    public let title = "DCEA Pairing Setup <=> NPBA Advertise with a method"
    public let severity = AnalysisSeverity.error
    public let source = "nan-wire-reference.md 3.3 (advertising pairing capability), 2.16 (DCEA), 2.18 (NPBA)"

    public init() {}

    public func findings(on frame: CaptureFrame, in context: AnalysisContext) -> [AnalysisFinding] {
        guard frame.isJudged, let management = frame.management, let sdf = frame.serviceDiscovery,
            !sdf.publishes.isEmpty
        else { return [] }
        let what = AnalysisContext.describe(management)
        let setup = sdf.deviceCapabilityExtension?.pairingSetupEnabled == true
        let advertise = sdf.pairingBootstrapping.first { $0.type == .advertise }
        var found: [AnalysisFinding] = []
        switch (setup, advertise) {
        case (true, nil):
            found.append(finding(frame.number, "\(what): DCEA enables pairing setup but there is no NPBA Advertise"))
        case (false, .some):
            found.append(finding(frame.number, "\(what): NPBA Advertise without a DCEA that enables pairing setup"))
        case (false, nil):
            if context.profile.offersPairing == true {
                found.append(
                    finding(
                        frame.number,
                        "\(what): the profile offers pairing but the publish carries neither DCEA nor NPBA"
                    )
                )
            }
        case (true, .some):
            break
        }
        if let advertise, advertise.methods.subtracting(.reserved).isEmpty {
            found.append(finding(frame.number, "\(what): NPBA Advertise lists no bootstrapping method"))
        }
        return found
    }
}

/// Bootstrapping: the requester names exactly one method, its own (PIN keypad = "I type"); an
/// Accepted response names the complement (PIN display = "I show"), and the requester checks
/// `complement(response) == request` (hostap nan_bootstrap.c). Responses are matched to the
/// request by the two NMIs and the dialog token.
public struct BootstrappingExchangeRule: AnalysisRule {
    public let id = "WA/CAP/NPBA-02"
    public let title = "Bootstrapping: one method asked, its complement accepted"
    public let severity = AnalysisSeverity.error
    public let source = "nan-wire-reference.md 3.2 (complement rule), 2.18 (NPBA)"

    private struct Key: Hashable, Sendable {
        var requester: MACAddress
        var responder: MACAddress
        var token: UInt8
    }

    /// The methods of each request so far, by the two NMIs and the dialog token: at most 256
    /// per pair of devices.
    private var requested: [Key: BootstrappingMethods] = [:]

    public init() {}

    public mutating func findings(on frame: CaptureFrame, in context: AnalysisContext) -> [AnalysisFinding] {
        guard frame.isJudged, let management = frame.management, let sdf = frame.serviceDiscovery else { return [] }
        let what = AnalysisContext.describe(management)
        let transmitter = management.header.address2
        let receiver = management.header.address1
        var found: [AnalysisFinding] = []
        for npba in sdf.pairingBootstrapping {
            switch npba.type {
            case .request:
                let methods = npba.methods.subtracting(.reserved)
                if methods.rawValue.nonzeroBitCount != 1 {
                    found.append(
                        finding(
                            frame.number,
                            "\(what): NPBA Request (token \(npba.dialogToken)) names "
                                + "\(methods.rawValue.nonzeroBitCount) methods (0x\(hex(npba.methods.rawValue))); "
                                + "exactly one is allowed"
                        )
                    )
                }
                requested[Key(requester: transmitter, responder: receiver, token: npba.dialogToken)] = methods
            case .response where npba.status == .accepted:
                let key = Key(requester: receiver, responder: transmitter, token: npba.dialogToken)
                guard let request = requested[key] else { continue }
                if npba.methods.complement != request {
                    found.append(
                        finding(
                            frame.number,
                            "\(what): NPBA Response accepted method 0x\(hex(npba.methods.rawValue)) is not the "
                                + "complement of the requested 0x\(hex(request.rawValue)) (token \(npba.dialogToken))"
                        )
                    )
                }
            default:
                continue
            }
        }
        return found
    }

    private func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// A device that paired and caches keys (DCEA NPK/NIK Caching) must carry a NIRA in its
/// publishes from then on: it is how a phone that cached its NIK recognises it under a new
/// NMI and runs verification instead of asking for a PIN again (nan-wire-reference.md 3.3,
/// 3.7); hostap adds it whenever verification is enabled and a NIK exists.
public struct IdentityResolutionAfterPairingRule: AnalysisRule {
    public let id = "WA/CAP/NIRA-01"
    public let title = "After pairing, a key-caching device publishes a NIRA"
    public let severity = AnalysisSeverity.error
    public let source = "nan-wire-reference.md 3.3 (NIRA added with pairing verification), 3.7, 2.17"

    /// The frame of each key-caching responder's first pairing, worked out once per capture.
    private var pairedAt: [MACAddress: Int]?

    public init() {}

    public mutating func findings(on frame: CaptureFrame, in context: AnalysisContext) -> [AnalysisFinding] {
        let pairedAt = self.pairedAt ?? Self.firstPairings(in: context)
        self.pairedAt = pairedAt
        guard !pairedAt.isEmpty, frame.isJudged, let management = frame.management,
            let sdf = frame.serviceDiscovery, !sdf.publishes.isEmpty,
            let paired = pairedAt[management.header.address2], frame.number > paired,
            sdf.identityResolution == nil
        else { return [] }
        return [
            finding(
                frame.number,
                "\(AnalysisContext.describe(management)) has no NIRA although the device paired in frame "
                    + "\(paired) and advertises NPK/NIK caching"
            )
        ]
    }

    private static func firstPairings(in context: AnalysisContext) -> [MACAddress: Int] {
        var pairedAt: [MACAddress: Int] = [:]
        for pairing in context.pairings.pairings where context.cachingDevices.contains(pairing.responder) {
            pairedAt[pairing.responder] = min(pairedAt[pairing.responder] ?? .max, pairing.completedAt)
        }
        return pairedAt
    }
}
