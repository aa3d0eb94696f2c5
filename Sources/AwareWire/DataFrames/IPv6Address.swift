import AwareCore

/// A 128-bit IPv6 address (RFC 8200), as the 16 octets that go on the wire.
public struct IPv6Address: Hashable, Sendable, WireCodable, CustomStringConvertible {
    public let octets: [UInt8]

    /// nil unless exactly 16 octets are given.
    public init?(_ octets: some Collection<UInt8>) {
        guard octets.count == 16 else { return nil }
        self.octets = Array(octets)
    }

    /// The link-local address fe80::/64 + `interfaceIdentifier` (RFC 4291 2.5.6); nil unless
    /// the identifier is 8 octets (64 bits).
    public static func linkLocal(interfaceIdentifier: [UInt8]) -> IPv6Address? {
        guard interfaceIdentifier.count == 8 else { return nil }
        return IPv6Address([0xFE, 0x80, 0, 0, 0, 0, 0, 0] + interfaceIdentifier)
    }

    /// The modified EUI-64 interface identifier of a MAC address (RFC 4291 Appendix A):
    /// FF FE inserted between the OUI half and the rest, and the universal/local bit (0x02
    /// of the first octet) inverted. 02:a0:00:00:00:01 gives 00:a0:00:ff:fe:00:00:01.
    public static func interfaceIdentifier(from mac: MACAddress) -> [UInt8] {
        let o = mac.octets
        return [o[0] ^ 0x02, o[1], o[2], 0xFF, 0xFE, o[3], o[4], o[5]]
    }

    /// The link-local address of a NAN Data Interface: fe80:: + the NDI's modified EUI-64.
    public static func linkLocal(of mac: MACAddress) -> IPv6Address {
        IPv6Address(linkLocal: interfaceIdentifier(from: mac))
    }

    private init(linkLocal identifier: [UInt8]) {
        octets = [0xFE, 0x80, 0, 0, 0, 0, 0, 0] + identifier
    }

    public var isLinkLocal: Bool { octets[0] == 0xFE && octets[1] & 0xC0 == 0x80 }

    /// The unspecified address `::` (RFC 4291 2.5.2): the source of a Neighbor Solicitation
    /// sent during Duplicate Address Detection, never a destination.
    public static let unspecified = IPv6Address(wellKnown: [UInt8](repeating: 0, count: 16))

    /// The link-local all-nodes multicast address ff02::1 (RFC 4291 2.7.1).
    public static let allNodes = IPv6Address(wellKnown: [0xFF, 0x02] + [UInt8](repeating: 0, count: 13) + [0x01])

    /// ff00::/8 (RFC 4291 2.7).
    public var isMulticast: Bool { octets[0] == 0xFF }

    public var isUnspecified: Bool { octets.allSatisfy { $0 == 0 } }

    /// The solicited-node multicast address of this address (RFC 4291 2.7.1): ff02::1:ff00:0/104
    /// with the low 24 bits of this address, the destination of a Neighbor Solicitation that
    /// resolves it (RFC 4861 7.2.2).
    public var solicitedNodeMulticast: IPv6Address {
        IPv6Address(wellKnown: [0xFF, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0xFF] + octets[13..<16])
    }

    /// For the 16-octet constants and derived addresses above.
    private init(wellKnown octets: [UInt8]) {
        precondition(octets.count == 16, "an IPv6 address is 16 octets")
        self.octets = octets
    }

    public init(from reader: inout WireReader) throws(WireError) {
        octets = try reader.readBytes(16, "IPv6 Address")
    }

    public func write(to writer: inout WireWriter) { writer.write(octets) }

    /// The RFC 5952 text form: lower-case hex groups without leading zeros, the longest run
    /// of two or more zero groups (the first, on a tie) shortened to `::`.
    public var description: String {
        let groups = (0..<8).map { UInt16(octets[2 * $0]) << 8 | UInt16(octets[2 * $0 + 1]) }
        var best = (start: -1, length: 0)
        var index = 0
        while index < 8 {
            guard groups[index] == 0 else {
                index += 1
                continue
            }
            var end = index
            while end < 8, groups[end] == 0 { end += 1 }
            if end - index > best.length { best = (index, end - index) }
            index = end
        }
        let text = groups.map { String($0, radix: 16) }
        guard best.length >= 2 else { return text.joined(separator: ":") }
        let head = text[..<best.start].joined(separator: ":")
        let tail = text[(best.start + best.length)...].joined(separator: ":")
        return head + "::" + tail
    }
}
