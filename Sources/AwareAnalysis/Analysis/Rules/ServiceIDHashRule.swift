import AwareWire

/// A publish's Service ID is the first 6 octets of SHA-256 of the lower-cased service name; a
/// phone subscribing by name computes the same hash and never matches anything else. Checked
/// when the names are known (the profile or --service), for every Publish.
public struct ServiceIDHashRule: AnalysisRule {
    public let id = "WA/CAP/SID-01"
    public let title = "Published Service IDs are the hash of a known name"
    public let severity = AnalysisSeverity.error
    public let source = "nan-wire-reference.md 2.4 (Service ID, hostap nan_de_derive_service_id), 8.6"

    public init() {}

    public func findings(in context: AnalysisContext) -> [AnalysisFinding] {
        let known = context.profile.serviceIDs
        guard !known.isEmpty else { return [] }
        let expected = known.map { "\($0.name) -> \($0.id)" }.joined(separator: ", ")
        var found: [AnalysisFinding] = []
        for frame in context.judgedFrames {
            guard let management = frame.management, let sdf = frame.serviceDiscovery else { continue }
            for case .serviceDescriptor(let sda) in sdf.attributes
            where sda.type == .publish && !known.contains(where: { $0.id == sda.serviceID }) {
                found.append(
                    finding(
                        frame.number,
                        "\(AnalysisContext.describe(management)): service ID \(sda.serviceID) is not the hash of "
                            + "any known service name (\(expected))"
                    )
                )
            }
        }
        return found
    }
}
