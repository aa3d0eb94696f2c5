/// An IEEE 802 MAC address (NMI, NDI, cluster ID, NAN Network ID).
public struct MACAddress: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let octets: [UInt8]

    /// nil unless exactly six octets are given.
    public init?(_ octets: some Collection<UInt8>) {
        guard octets.count == 6 else { return nil }
        self.octets = Array(octets)
    }

    public init(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8, _ e: UInt8, _ f: UInt8) {
        octets = [a, b, c, d, e, f]
    }

    /// Parses `02:a0:00:00:00:01`, `02-a0-00-00-00-01` or `02a000000001`.
    public init?(string: String) {
        let hex = string.filter { $0 != ":" && $0 != "-" }
        guard hex.count == 12, let bytes = HexString.decode(hex) else { return nil }
        octets = bytes
    }

    /// The group bit (I/G) of the first octet: multicast or broadcast.
    public var isGroup: Bool { octets[0] & 0x01 != 0 }
    public var isBroadcast: Bool { octets.allSatisfy { $0 == 0xFF } }
    /// Whether a station can have this address as its own: individual (I/G bit clear) and not
    /// all zeros, the null address that names no station (Linux and hostap read it as "unset",
    /// `is_zero_ether_addr`).
    public var isStationAddress: Bool { !isGroup && octets.contains { $0 != 0 } }

    public var description: String {
        octets.map { HexString.byte($0) }.joined(separator: ":")
    }

    public static func < (lhs: MACAddress, rhs: MACAddress) -> Bool {
        lhs.octets.lexicographicallyPrecedes(rhs.octets)
    }

    public static let broadcast = MACAddress(0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF)
    /// NAN Network ID: A1 of multicast SDFs, A3 in USD (nan-wire-reference.md 1.3).
    public static let nanNetworkID = MACAddress(0x51, 0x6F, 0x9A, 0x01, 0x00, 0x00)

    /// Cluster IDs are 50:6F:9A:01:xx:xx (nan-wire-reference.md 1.3).
    public var isClusterID: Bool { octets[0..<4].elementsEqual([0x50, 0x6F, 0x9A, 0x01]) }
}
