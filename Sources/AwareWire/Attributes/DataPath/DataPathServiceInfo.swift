/// Where a data path's Generic Service Protocol (the service's transport port and protocol,
/// ``GenericServiceProtocol``) is read from: the Service Info TLV of an NDPE attribute, or, when
/// the NDP attribute (0x10) is used instead, its NDP Specific Info read as NDPE TLVs.
///
/// The NDP Specific Info reading is Android's, not settled by a specification clause we can
/// cite: Android hands the same TLV bytes to its firmware as the NDP's app info
/// (`WifiAwareDataPathStateManager.NetworkInformationData.buildTlv`), and its HAL documents app
/// info as "NDP Attribute / NDP Specific Info" (`NanRespondToDataPathIndicationRequest.appInfo`).
extension NDPExtensionTLV {
    /// The Generic Service Protocol of a Service Info TLV with the WFA OUI and Service Protocol
    /// Type 2; nil for any other TLV. Throws when its data is not whole sub-attributes.
    public func genericServiceProtocol() throws(WireError) -> GenericServiceProtocol? {
        guard case .serviceInfo(let oui, let serviceProtocolType, let data) = self else { return nil }
        return try GenericServiceProtocol(oui: oui, serviceProtocolType: serviceProtocolType, data: data)
    }
}

extension [NDPExtensionTLV] {
    /// The first well-formed Generic Service Protocol among the TLVs. A malformed one is passed
    /// over, as Android's parser drops the whole service info it cannot read.
    var firstGenericServiceProtocol: GenericServiceProtocol? {
        for tlv in self {
            if let value = try? tlv.genericServiceProtocol() { return value }
        }
        return nil
    }
}

extension NDPExtensionAttribute {
    /// The Generic Service Protocol of the first Service Info TLV that holds a well-formed one.
    public var genericServiceProtocol: GenericServiceProtocol? { tlvs.firstGenericServiceProtocol }

    /// The transport port the attribute names (Service Info TLV, sub-attribute 0x00).
    public var transportPort: UInt16? { genericServiceProtocol?.transportPort }

    /// The IANA protocol number the attribute names (Service Info TLV, sub-attribute 0x01).
    public var transportProtocol: UInt8? { genericServiceProtocol?.transportProtocol }
}

extension NDPAttribute {
    /// The NDP Specific Info read as NDPE TLVs, Android's placement of its service info in an
    /// NDP attribute; nil when there is none or it is not exactly a sequence of whole TLVs.
    public var ndpSpecificInfoTLVs: [NDPExtensionTLV]? {
        guard let ndpSpecificInfo, !ndpSpecificInfo.isEmpty else { return nil }
        var reader = WireReader(ndpSpecificInfo, structure: "NDP Specific Info")
        var tlvs: [NDPExtensionTLV] = []
        do throws(WireError) {
            while !reader.isAtEnd { tlvs.append(try NDPExtensionTLV(from: &reader)) }
        } catch {
            return nil
        }
        return tlvs
    }

    /// The Generic Service Protocol of the NDP Specific Info's Service Info TLV (Android's
    /// placement), when it has a well-formed one.
    public var genericServiceProtocol: GenericServiceProtocol? { ndpSpecificInfoTLVs?.firstGenericServiceProtocol }
}
