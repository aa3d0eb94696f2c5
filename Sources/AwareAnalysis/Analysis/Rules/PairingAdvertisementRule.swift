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

    public func findings(in context: AnalysisContext) -> [AnalysisFinding] {
        var found: [AnalysisFinding] = []
        for frame in context.judgedFrames {
            guard let management = frame.management, let sdf = frame.serviceDiscovery, !sdf.publishes.isEmpty else {
                continue
            }
            let what = AnalysisContext.describe(management)
            let setup = sdf.deviceCapabilityExtension?.pairingSetupEnabled == true
            let advertise = sdf.pairingBootstrapping.first { $0.type == .advertise }
            switch (setup, advertise) {
            case (true, nil):
                found.append(
                    finding(frame.number, "\(what): DCEA enables pairing setup but there is no NPBA Advertise")
                )
            case (false, .some):
                found.append(
                    finding(frame.number, "\(what): NPBA Advertise without a DCEA that enables pairing setup")
                )
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
        }
        return found
    }
}
