/// An SAE confirm: `Send-Confirm (2, LE) | Confirm (hash length)`.
public struct SAEConfirm: Hashable, Sendable {
    public var sendConfirm: UInt16
    public var confirm: [UInt8]

    public init(sendConfirm: UInt16, confirm: [UInt8]) {
        self.sendConfirm = sendConfirm
        self.confirm = confirm
    }

    public init(from reader: inout WireReader, confirmLength: Int) throws(WireError) {
        sendConfirm = try reader.readUInt16LE("Send-Confirm")
        confirm = try reader.readBytes(confirmLength, "Confirm")
    }

    public func write(to writer: inout WireWriter) {
        writer.writeUInt16LE(sendConfirm)
        writer.write(confirm)
    }
}

extension SAEConfirm: WireDescribable {
    public var decodedFields: [DecodedField] {
        [
            .init("sendConfirm", "Send-Confirm", .unsigned(UInt64(sendConfirm))),
            .init("confirm", "Confirm", .bytes(confirm)),
        ]
    }
}
