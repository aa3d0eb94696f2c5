/// One message of a datagram read from a netlink socket. A datagram may hold several
/// messages back to back, each padded to 4 octets (`NLMSG_ALIGN`, `linux/netlink.h`); control
/// messages (`NLMSG_ERROR`, `NLMSG_DONE`) end requests and dumps.
public enum NetlinkReceivedMessage: Hashable, Sendable {
    case generic(GenericNetlinkMessage)
    /// `NLMSG_ERROR`: `code` is 0 for an acknowledgement, else a negative errno.
    case error(code: Int32, sequence: UInt32)
    /// `NLMSG_DONE`: the end of a dump.
    case done(sequence: UInt32)

    /// `NLMSG_NOOP`, `NLMSG_ERROR`, `NLMSG_DONE`, `NLMSG_OVERRUN` (`linux/netlink.h`).
    static let noopType: UInt16 = 1
    static let errorType: UInt16 = 2
    static let doneType: UInt16 = 3
    static let overrunType: UInt16 = 4
    static let headerLength = 16

    /// The messages of `datagram`, in order. Offsets in errors count from the start of the
    /// datagram.
    public static func messages(in datagram: [UInt8]) throws(RadioError) -> [NetlinkReceivedMessage] {
        var result: [NetlinkReceivedMessage] = []
        var offset = 0
        while offset < datagram.count {
            guard datagram.count - offset >= headerLength else {
                throw RadioError.malformedMessage(
                    reason: "\(datagram.count - offset) octets cannot hold a netlink header",
                    offset: offset
                )
            }
            let length = Int(littleEndian32(datagram, at: offset))
            guard length >= headerLength, length <= datagram.count - offset else {
                throw RadioError.malformedMessage(
                    reason: "nlmsg_len \(length) does not fit the \(datagram.count - offset) octets left",
                    offset: offset
                )
            }
            let bytes = Array(datagram[offset..<offset + length])
            let type = UInt16(bytes[4]) | UInt16(bytes[5]) << 8
            let sequence = littleEndian32(bytes, at: 8)
            switch type {
            case errorType:
                // struct nlmsgerr: int error, then the request's header (and more).
                guard length >= headerLength + 4 else {
                    throw RadioError.malformedMessage(reason: "NLMSG_ERROR without an error code", offset: offset)
                }
                result.append(.error(code: Int32(bitPattern: littleEndian32(bytes, at: 16)), sequence: sequence))
            case doneType:
                result.append(.done(sequence: sequence))
            case noopType, overrunType:
                break
            default:
                do {
                    result.append(.generic(try GenericNetlinkMessage(parsing: bytes)))
                } catch .malformedMessage(let reason, let inner) {
                    throw RadioError.malformedMessage(reason: reason, offset: offset + inner)
                }
            }
            offset += (length + 3) & ~3
        }
        return result
    }

    private static func littleEndian32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }
}
