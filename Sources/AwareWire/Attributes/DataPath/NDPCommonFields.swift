import AwareCore

/// The fields the NDP and NDPE attributes share (nan-wire-reference.md 2.10):
/// Dialog Token (1) | Type and Status (1) | Reason Code (1) | Initiator NDI (6) | NDP ID (1) |
/// NDP Control (1) | [Publish ID (1)] if b3 | [Responder NDI (6)] if b4.
///
/// Presence is decided by the control bits (Wireshark infers Responder NDI from Type and
/// Status instead; the reference says to trust the bit). The raw control is kept; b3 and
/// b4 are written from the optional fields. b5 differs between the two attributes (NDP
/// Specific Info Present in NDP, GTK Required in NDPE), so each attribute settles it.
public struct NDPCommonFields: DataPathSharedFields, Hashable, Sendable {
    public static var sharedFields: WritableKeyPath<Self, DataPathHeader<NDPType>> { \.header }

    static let presenceBits: NDPControl = [.publishIDPresent, .responderNDIPresent]

    public var header: DataPathHeader<NDPType>
    public var initiatorNDI: MACAddress
    public var ndpID: UInt8
    public var ndpControl: NDPControl
    public var publishID: UInt8?
    public var responderNDI: MACAddress?

    public init(
        dialogToken: UInt8,
        type: NDPType,
        status: DataPathStatus,
        reasonCode: NANReasonCode = .reserved,
        initiatorNDI: MACAddress,
        ndpID: UInt8,
        ndpControl: NDPControl = [],
        publishID: UInt8? = nil,
        responderNDI: MACAddress? = nil
    ) {
        header = DataPathHeader(dialogToken: dialogToken, type: type, status: status, reasonCode: reasonCode)
        self.initiatorNDI = initiatorNDI
        self.ndpID = ndpID
        self.ndpControl = ndpControl
        self.publishID = publishID
        self.responderNDI = responderNDI
        self.ndpControl = effectiveControl
    }

    /// The control with b3 and b4 following the optional fields.
    public var effectiveControl: NDPControl {
        var control = ndpControl.subtracting(Self.presenceBits)
        if publishID != nil { control.insert(.publishIDPresent) }
        if responderNDI != nil { control.insert(.responderNDIPresent) }
        return control
    }

    public init(from reader: inout WireReader) throws(WireError) {
        header = try DataPathHeader(from: &reader)
        initiatorNDI = try reader.readMAC("Initiator NDI")
        ndpID = try reader.readUInt8("NDP ID")
        ndpControl = NDPControl(rawValue: try reader.readUInt8("NDP Control"))
        publishID = ndpControl.contains(.publishIDPresent) ? try reader.readUInt8("Publish ID") : nil
        responderNDI = ndpControl.contains(.responderNDIPresent) ? try reader.readMAC("Responder NDI") : nil
    }

    /// Writes the fields with `control` (the attribute's effective control) as NDP Control.
    public func write(to writer: inout WireWriter, control: NDPControl) {
        header.write(to: &writer)
        writer.write(initiatorNDI)
        writer.write(ndpID)
        writer.write(control.rawValue)
        if let publishID { writer.write(publishID) }
        if let responderNDI { writer.write(responderNDI) }
    }

    /// The fields described with `control` as NDP Control; `bit5` describes b5 as the
    /// attribute means it and stands after the other control bits.
    public func decodedFields(control: NDPControl, bit5: DecodedField) -> [DecodedField] {
        var fields = header.decodedFields
        fields += [
            DecodedField("initiatorNDI", "Initiator NDI", .address(initiatorNDI)),
            DecodedField("ndpID", "NDP ID", .unsigned(UInt64(ndpID))),
            DecodedField("ndpControl", "NDP Control", .bits(UInt64(control.rawValue), digits: 2)),
            DecodedField("confirmRequired", "Confirm Required", .flag(control.contains(.confirmRequired))),
            DecodedField("securityPresent", "Security Present", .flag(control.contains(.securityPresent))),
            DecodedField("publishIDPresent", "Publish ID Present", .flag(publishID != nil)),
            DecodedField("responderNDIPresent", "Responder NDI Present", .flag(responderNDI != nil)),
            bit5,
        ]
        if let publishID { fields.append(DecodedField("publishID", "Publish ID", .unsigned(UInt64(publishID)))) }
        if let responderNDI { fields.append(DecodedField("responderNDI", "Responder NDI", .address(responderNDI))) }
        return fields
    }
}
