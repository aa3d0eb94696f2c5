/// `Dialog Token (1) | Type and Status (1) | Reason Code (1)`: the octets that open the NDL
/// attribute (nan-wire-reference.md 2.9) and the NDP and NDPE attributes (2.10). Type is
/// b0-3 and Status b4-7 of Type and Status.
public struct DataPathHeader<DataPathTypeCode: DataPathType>: WireCodable, WireDescribable {
    public var dialogToken: UInt8
    public var type: DataPathTypeCode
    public var status: DataPathStatus
    public var reasonCode: NANReasonCode

    public init(dialogToken: UInt8, type: DataPathTypeCode, status: DataPathStatus, reasonCode: NANReasonCode) {
        self.dialogToken = dialogToken
        self.type = type
        self.status = status
        self.reasonCode = reasonCode
    }

    public var typeAndStatus: UInt8 { type.code | status.code << 4 }

    public init(from reader: inout WireReader) throws(WireError) {
        dialogToken = try reader.readUInt8("Dialog Token")
        let typeAndStatus = try reader.readUInt8("Type and Status")
        type = DataPathTypeCode(code: typeAndStatus)
        status = DataPathStatus(code: typeAndStatus >> 4)
        reasonCode = NANReasonCode(try reader.readUInt8("Reason Code"))
    }

    public func write(to writer: inout WireWriter) {
        writer.write(dialogToken)
        writer.write(typeAndStatus)
        writer.write(reasonCode.rawValue)
    }

    public var decodedFields: [DecodedField] {
        [
            DecodedField("dialogToken", "Dialog Token", .unsigned(UInt64(dialogToken))),
            DecodedField("typeAndStatus", "Type and Status", .bits(UInt64(typeAndStatus), digits: 2)),
            DecodedField("type", "Type", type.decodedValue),
            DecodedField("status", "Status", status.decodedValue),
            DecodedField("reasonCode", "Reason Code", reasonCode.decodedValue),
        ]
    }
}
