/// The SDEA Range Limit field: Ingress (2, LE) | Egress (2, LE), present when SDEA Control bit 8
/// is set (nan-wire-reference.md 2.5). The reference does not give the units.
public struct ServiceRangeLimit: Hashable, Sendable {
    public var ingress: UInt16
    public var egress: UInt16

    public init(ingress: UInt16, egress: UInt16) {
        self.ingress = ingress
        self.egress = egress
    }
}
