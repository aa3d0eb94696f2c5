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

/// An SAE commit: `Group (2, LE) | Scalar | Element (x || y)` and any elements after it
/// (password identifier, rejected groups, token container), kept raw.
public struct SAECommit: Hashable, Sendable {
    public var group: SAEGroup
    public var scalar: [UInt8]
    /// x || y, each the group's prime length.
    public var element: [UInt8]
    /// Elements after the commit element, or the whole body for a group we cannot lay out.
    public var trailing: [UInt8]

    public init(group: SAEGroup, scalar: [UInt8], element: [UInt8], trailing: [UInt8] = []) {
        self.group = group
        self.scalar = scalar
        self.element = element
        self.trailing = trailing
    }

    public init(from reader: inout WireReader) throws(WireError) {
        group = SAEGroup(rawValue: try reader.readUInt16LE("Finite Cyclic Group"))
        guard let length = group.primeLength else {
            scalar = []
            element = []
            trailing = reader.readRemaining()
            return
        }
        scalar = try reader.readBytes(length, "Scalar")
        element = try reader.readBytes(2 * length, "Element")
        trailing = reader.readRemaining()
    }

    public func write(to writer: inout WireWriter) {
        writer.writeUInt16LE(group.rawValue)
        writer.write(scalar)
        writer.write(element)
        writer.write(trailing)
    }
}

extension SAECommit: WireDescribable {
    public var decodedFields: [DecodedField] {
        var fields: [DecodedField] = [
            .init("group", "Finite Cyclic Group", .named(UInt64(group.rawValue), group.description))
        ]
        if group.primeLength != nil {
            let half = element.count / 2
            fields.append(.init("scalar", "Scalar", .bytes(scalar)))
            fields.append(.init("elementX", "Element x", .bytes(Array(element[..<half]))))
            fields.append(.init("elementY", "Element y", .bytes(Array(element[half...]))))
        }
        if !trailing.isEmpty { fields.append(.init("raw", "Undecoded", .bytes(trailing))) }
        return fields
    }
}

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

/// The finite cyclic groups SAE uses here (IEEE 802.11-2020 12.4.4; NAN pairing uses 19
/// with NCS-PK-PASN-128 and 20 with NCS-PK-PASN-256, nan-wire-reference.md 3.4).
public struct SAEGroup: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let p256 = SAEGroup(rawValue: 19)
    public static let p384 = SAEGroup(rawValue: 20)
    public static let p521 = SAEGroup(rawValue: 21)

    /// Octets of a field element or scalar, for the elliptic-curve groups we can lay out.
    public var primeLength: Int? {
        switch rawValue {
        case 19: 32
        case 20: 48
        case 21: 66
        default: nil
        }
    }

    /// Confirm length = the group's hash length (SHA-256 / SHA-384 / SHA-512).
    public var confirmLength: Int? {
        switch rawValue {
        case 19: 32
        case 20: 48
        case 21: 64
        default: nil
        }
    }

    public var description: String {
        switch rawValue {
        case 19: "P-256"
        case 20: "P-384"
        case 21: "P-521"
        default: "group \(rawValue)"
        }
    }
}
