import AwareCore

/// NDP attribute (0x10) (nan-wire-reference.md 2.10; hostap `struct ieee80211_ndp`): the
/// fields it shares with NDPE (``NDPCommonFields``), then
/// [NDP Specific Info (the remaining octets)] if NDP Control b5.
///
/// The raw control is kept; b3, b4 and b5 are written from the optional fields.
public struct NDPAttribute: NANAttributeBody, DataPathSharedFields {
    public static let attributeID = NANAttributeID.ndp
    public static var sharedFields: WritableKeyPath<Self, NDPCommonFields> { \.common }

    public var common: NDPCommonFields
    public var ndpSpecificInfo: [UInt8]?

    public init(
        dialogToken: UInt8,
        type: NDPType,
        status: DataPathStatus,
        reasonCode: NANReasonCode = .reserved,
        initiatorNDI: MACAddress,
        ndpID: UInt8,
        ndpControl: NDPControl = [],
        publishID: UInt8? = nil,
        responderNDI: MACAddress? = nil,
        ndpSpecificInfo: [UInt8]? = nil
    ) {
        let common = NDPCommonFields(
            dialogToken: dialogToken,
            type: type,
            status: status,
            reasonCode: reasonCode,
            initiatorNDI: initiatorNDI,
            ndpID: ndpID,
            ndpControl: ndpControl,
            publishID: publishID,
            responderNDI: responderNDI
        )
        self.init(common: common, ndpSpecificInfo: ndpSpecificInfo)
    }

    public init(common: NDPCommonFields, ndpSpecificInfo: [UInt8]? = nil) {
        self.common = common
        self.ndpSpecificInfo = ndpSpecificInfo
        self.common.ndpControl = effectiveControl
    }

    /// The control as written: the presence bits follow the optional fields.
    public var effectiveControl: NDPControl {
        var control = common.effectiveControl.subtracting(.ndpSpecificInfoPresent)
        if ndpSpecificInfo != nil { control.insert(.ndpSpecificInfoPresent) }
        return control
    }

    public init(from reader: inout WireReader) throws(WireError) {
        common = try NDPCommonFields(from: &reader)
        ndpSpecificInfo = common.ndpControl.contains(.ndpSpecificInfoPresent) ? reader.readRemaining() : nil
    }

    public func write(to writer: inout WireWriter) {
        common.write(to: &writer, control: effectiveControl)
        if let ndpSpecificInfo { writer.write(ndpSpecificInfo) }
    }

    public var decodedFields: [DecodedField] {
        let bit5 = DecodedField("ndpSpecificInfoPresent", "NDP Specific Info Present", .flag(ndpSpecificInfo != nil))
        var fields = common.decodedFields(control: effectiveControl, bit5: bit5)
        if let ndpSpecificInfo {
            fields.append(DecodedField("ndpSpecificInfo", "NDP Specific Info", .bytes(ndpSpecificInfo)))
        }
        // Android's reading: the NDPE TLVs of its app info (DataPathServiceInfo.swift).
        if let tlvs = ndpSpecificInfoTLVs {
            fields.append(
                DecodedField(
                    "ndpSpecificInfoTLVs",
                    "NDP Specific Info as TLVs",
                    .list(tlvs.map { .fields($0.decodedFields) })
                )
            )
        }
        return fields
    }
}
