import AwareCore
import AwareWire

/// Bootstrapping: the requester names exactly one method, its own (PIN keypad = "I type"); an
/// Accepted response names the complement (PIN display = "I show"), and the requester checks
/// `complement(response) == request` (hostap nan_bootstrap.c). Responses are matched to the
/// request by the two NMIs and the dialog token.
public struct BootstrappingExchangeRule: AnalysisRule {
    public let id = "WA/CAP/NPBA-02"
    public let title = "Bootstrapping: one method asked, its complement accepted"
    public let severity = AnalysisSeverity.error
    public let source = "nan-wire-reference.md 3.2 (complement rule), 2.18 (NPBA)"

    public init() {}

    public func findings(in context: AnalysisContext) -> [AnalysisFinding] {
        var found: [AnalysisFinding] = []
        struct Key: Hashable {
            var requester: MACAddress
            var responder: MACAddress
            var token: UInt8
        }
        var requested: [Key: BootstrappingMethods] = [:]
        for frame in context.judgedFrames {
            guard let management = frame.management, let sdf = frame.serviceDiscovery else { continue }
            let what = AnalysisContext.describe(management)
            let transmitter = management.header.address2
            let receiver = management.header.address1
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
        }
        return found
    }

    private func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
