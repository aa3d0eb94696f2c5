import AwareWire

/// The Service Descriptor attribute and its extension must agree: an SDEA extends the SDA with
/// the same Instance ID (hostap matches them by instance ID), an Instance ID is 1..255, and the
/// Service Control type 3 is reserved.
public struct ServiceDescriptorConsistencyRule: AnalysisRule {
    public let id = "WA/CAP/ATTR-01"
    public let title = "SDEA matches an SDA; Instance ID 1..255; no reserved type"
    public let severity = AnalysisSeverity.error
    public let source = "nan-wire-reference.md 2.4 (SDA Instance ID, Service Control), 2.5 (SDEA Instance ID)"

    public init() {}

    public func findings(in context: AnalysisContext) -> [AnalysisFinding] {
        var found: [AnalysisFinding] = []
        for frame in context.judgedFrames {
            guard let management = frame.management, let sdf = frame.serviceDiscovery else { continue }
            let what = AnalysisContext.describe(management)
            var instances: Set<UInt8> = []
            for case .serviceDescriptor(let sda) in sdf.attributes {
                instances.insert(sda.instanceID)
                if sda.instanceID == 0 {
                    found.append(finding(frame.number, "\(what): SDA for service \(sda.serviceID) has Instance ID 0"))
                }
                if sda.type == .reserved {
                    found.append(
                        finding(frame.number, "\(what): SDA for service \(sda.serviceID) has the reserved type 3")
                    )
                }
            }
            for case .serviceDescriptorExtension(let sdea) in sdf.attributes where !instances.contains(sdea.instanceID)
            {
                found.append(
                    finding(
                        frame.number,
                        "\(what): SDEA Instance ID \(sdea.instanceID) matches no SDA in the frame "
                            + "(SDA Instance IDs: \(instances.sorted().map(String.init).joined(separator: ", ")))"
                    )
                )
            }
        }
        return found
    }
}
