/// The Service Info field of an SDEA, after its 2-octet length (nan-wire-reference.md 2.5).
///
/// The reference gives its content as OUI (3) + Service Protocol Type (1) + info. A field of
/// fewer than 4 octets cannot hold that header; rather than reject the attribute it is kept as
/// ``unstructured(_:)`` octets, so it still round-trips byte-exact and a caller can decide.
public enum SDEAServiceInfo: Hashable, Sendable {
    case structured(ServiceSpecificInfo)
    /// 0 to 3 octets: too short for OUI + Service Protocol Type.
    case unstructured([UInt8])

    /// Splits `octets` into the structured form when they hold at least OUI + type.
    public init(_ octets: [UInt8]) {
        if octets.count >= 4 {
            self = .structured(
                ServiceSpecificInfo(
                    oui: Array(octets[0..<3]),
                    protocolType: ServiceProtocolType(rawValue: octets[3]),
                    info: Array(octets[4...])
                )
            )
        } else {
            self = .unstructured(octets)
        }
    }

    /// The field's octets, as written after the length.
    public var octets: [UInt8] {
        switch self {
        case .structured(let info): info.oui + [info.protocolType.rawValue] + info.info
        case .unstructured(let octets): octets
        }
    }

    public var serviceSpecificInfo: ServiceSpecificInfo? {
        if case .structured(let info) = self { return info }
        return nil
    }
}
