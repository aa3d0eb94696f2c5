/// An SAE Authentication frame body as PASN carries it inside Wrapped Data (Wrapped Data
/// Format 3): `Algorithm (2) | Transaction Sequence (2) | Status (2) | commit or confirm`
/// (nan-wire-reference.md 3.4.1; IEEE 802.11-2020 9.3.3.12).
public struct SAEAuthentication: Hashable, Sendable {
    /// Authentication algorithm number: 3 = SAE.
    public var algorithm: UInt16
    /// 1 = commit, 2 = confirm.
    public var transactionSequence: UInt16
    /// 0 success; 126 = SAE hash-to-element (the commit status NAN pairing uses).
    public var status: UInt16
    public var message: Message

    public enum Message: Hashable, Sendable {
        case commit(SAECommit)
        case confirm(SAEConfirm)
        /// A sequence number or group this decoder cannot lay out.
        case other([UInt8])
    }

    public init(algorithm: UInt16 = 3, transactionSequence: UInt16, status: UInt16, message: Message) {
        self.algorithm = algorithm
        self.transactionSequence = transactionSequence
        self.status = status
        self.message = message
    }

    /// Reads a message; a confirm needs the group of its commit to know the hash length,
    /// so `confirmGroup` supplies it (the commit in the same exchange).
    public init(from reader: inout WireReader, confirmGroup: SAEGroup?) throws(WireError) {
        algorithm = try reader.readUInt16LE("Authentication Algorithm")
        transactionSequence = try reader.readUInt16LE("Authentication Transaction Sequence")
        status = try reader.readUInt16LE("Status Code")
        switch (algorithm, transactionSequence) {
        case (3, 1):
            message = .commit(try SAECommit(from: &reader))
        case (3, 2):
            if let group = confirmGroup, let length = group.confirmLength {
                message = .confirm(try SAEConfirm(from: &reader, confirmLength: length))
            } else {
                // Without the group the confirm's length is whatever remains.
                message = .confirm(try SAEConfirm(from: &reader, confirmLength: max(0, reader.remaining - 2)))
            }
        default:
            message = .other(reader.readRemaining())
        }
    }

    public func write(to writer: inout WireWriter) {
        writer.writeUInt16LE(algorithm)
        writer.writeUInt16LE(transactionSequence)
        writer.writeUInt16LE(status)
        switch message {
        case .commit(let commit): commit.write(to: &writer)
        case .confirm(let confirm): confirm.write(to: &writer)
        case .other(let octets): writer.write(octets)
        }
    }
}

extension SAEAuthentication: WireDescribable {
    public var decodedFields: [DecodedField] {
        var fields: [DecodedField] = [
            .init("algorithm", "Authentication Algorithm", .named(UInt64(algorithm), algorithm == 3 ? "SAE" : "other")),
            .init(
                "transactionSequence",
                "Transaction Sequence",
                .named(
                    UInt64(transactionSequence),
                    transactionSequence == 1 ? "Commit" : transactionSequence == 2 ? "Confirm" : "other"
                )
            ),
            .init(
                "status",
                "Status Code",
                .named(UInt64(status), status == 0 ? "Success" : status == 126 ? "SAE Hash-to-Element" : "other")
            ),
        ]
        switch message {
        case .commit(let commit): fields.append(.init("commit", "SAE Commit", .fields(commit.decodedFields)))
        case .confirm(let confirm): fields.append(.init("confirm", "SAE Confirm", .fields(confirm.decodedFields)))
        case .other(let octets): fields.append(.init("raw", "Undecoded", .bytes(octets)))
        }
        return fields
    }
}
