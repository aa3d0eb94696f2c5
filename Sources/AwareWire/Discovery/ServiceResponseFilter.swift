import AwareCore

/// A Service Response Filter (SRF): which stations may answer a Subscribe or unsolicited
/// Publish (nan-wire-reference.md 2.4).
///
/// On the wire (inside the SDA, after the 1-octet SRF Length): `SRF Control (1) | Address Set`.
/// SRF Control: bit 0 Bloom filter, bit 1 Include, bits 2-3 Bloom Filter Index, bits 4-7
/// reserved (kept in ``reservedControlBits`` so a parsed SRF re-serializes byte-exact).
public struct ServiceResponseFilter: Hashable, Sendable {
    /// 1: only the stations in the set respond; 0: the stations in the set must not respond.
    public var include: Bool
    /// Bloom Filter Index (0...3): picks the four hash inputs `4*idx ... 4*idx+3`. Bits 2-3 of
    /// SRF Control; written even for an address list, so any parsed control round-trips.
    public var bloomFilterIndex: UInt8
    /// Bits 4-7 of SRF Control, in place (mask 0xF0).
    public var reservedControlBits: UInt8
    public var addressSet: ServiceResponseFilterAddressSet

    public init(
        include: Bool,
        addressSet: ServiceResponseFilterAddressSet,
        bloomFilterIndex: UInt8 = 0,
        reservedControlBits: UInt8 = 0
    ) {
        self.include = include
        self.addressSet = addressSet
        self.bloomFilterIndex = bloomFilterIndex & 0x03
        self.reservedControlBits = reservedControlBits & 0xF0
    }

    /// The SRF Control octet.
    public var control: UInt8 {
        (addressSet.isBloomFilter ? 0x01 : 0) | (include ? 0x02 : 0) | (bloomFilterIndex & 0x03) << 2
            | (reservedControlBits & 0xF0)
    }

    /// Whether the station with NMI `address` should respond, as hostap `nan_srf_match` decides:
    /// an address in the set gets `include`, any other address gets `!include`. A Bloom filter
    /// of zero octets matches nothing (hostap returns false for it whatever Include says).
    public func matches(_ address: MACAddress) -> Bool {
        switch addressSet {
        case .addressList(let addresses):
            return addresses.contains(address) ? include : !include
        case .bloomFilter(let filter):
            guard !filter.isEmpty else { return false }
            return Self.bloomFilter(filter, index: bloomFilterIndex, contains: address) ? include : !include
        }
    }

    /// Builds a Bloom-filter SRF holding `addresses`. `length` is the filter size in octets
    /// (1...254: the SRF Length octet also counts SRF Control) and `index` the Bloom Filter
    /// Index (0...3); values outside those ranges are programming errors.
    public static func bloom(
        addresses: [MACAddress],
        index: UInt8,
        length: Int,
        include: Bool
    ) -> ServiceResponseFilter {
        precondition((0...3).contains(index), "Bloom Filter Index is 0...3")
        precondition((1...254).contains(length), "a Bloom filter is 1...254 octets")
        var filter = [UInt8](repeating: 0, count: length)
        for address in addresses {
            for bit in bloomBitPositions(of: address, index: index, length: length) {
                filter[bit / 8] |= 1 << UInt8(bit % 8)
            }
        }
        return ServiceResponseFilter(include: include, addressSet: .bloomFilter(filter), bloomFilterIndex: index)
    }

    /// The four bit positions an address sets in a `length`-octet filter with index `index`:
    /// for j = 4*idx ... 4*idx+3, `A_j = j || MAC`, `h = ~CRC32(A_j) & 0xFFFF`, `bit = h mod (8*length)`
    /// (nan-wire-reference.md 2.4; hostap `bloom_filter_add` / `nan_check_bloom_filter`).
    public static func bloomBitPositions(of address: MACAddress, index: UInt8, length: Int) -> [Int] {
        guard length > 0 else { return [] }
        let first = Int(index & 0x03) * 4
        return (first..<(first + 4)).map { j in
            let hash = Int(~CRC32.checksum([UInt8(j)] + address.octets) & 0xFFFF)
            return hash % (8 * length)
        }
    }

    private static func bloomFilter(_ filter: [UInt8], index: UInt8, contains address: MACAddress) -> Bool {
        bloomBitPositions(of: address, index: index, length: filter.count).allSatisfy { bit in
            filter[bit / 8] & (1 << UInt8(bit % 8)) != 0
        }
    }
}

extension ServiceResponseFilter: WireCodable {
    /// Reads SRF Control and an Address Set that fills the rest of `reader` (the caller bounds it
    /// with the SRF Length). An address list must be a whole number of 6-octet addresses.
    public init(from reader: inout WireReader) throws(WireError) {
        let control = try reader.readUInt8("SRF Control")
        include = control & 0x02 != 0
        bloomFilterIndex = (control >> 2) & 0x03
        reservedControlBits = control & 0xF0
        if control & 0x01 != 0 {
            addressSet = .bloomFilter(reader.readRemaining())
        } else {
            guard reader.remaining % 6 == 0 else {
                throw reader.error(
                    .invalidValue("an address list of \(reader.remaining) octets is not a multiple of 6"),
                    field: "Address Set"
                )
            }
            var addresses: [MACAddress] = []
            while !reader.isAtEnd {
                addresses.append(try reader.readMAC("Address Set"))
            }
            addressSet = .addressList(addresses)
        }
    }

    public func write(to writer: inout WireWriter) {
        writer.write(control)
        switch addressSet {
        case .addressList(let addresses):
            for address in addresses { writer.write(address) }
        case .bloomFilter(let filter):
            writer.write(filter)
        }
    }
}

extension ServiceResponseFilter: WireDescribable {
    public var decodedFields: [DecodedField] {
        var fields = [
            DecodedField("srfControl", "SRF Control", .bits(UInt64(control), digits: 2)),
            DecodedField(
                "srfType",
                "SRF Type",
                addressSet.isBloomFilter ? .named(1, "Bloom filter") : .named(0, "MAC address list")
            ),
            DecodedField("include", "Include", .flag(include)),
            DecodedField("bloomFilterIndex", "Bloom Filter Index", .unsigned(UInt64(bloomFilterIndex))),
        ]
        switch addressSet {
        case .addressList(let addresses):
            fields.append(DecodedField("addressList", "Address List", .list(addresses.map { .address($0) })))
        case .bloomFilter(let filter):
            fields.append(DecodedField("bloomFilter", "Bloom Filter", .bytes(filter)))
        }
        return fields
    }
}

/// The Address Set of a Service Response Filter: what SRF Control bit 0 says it is
/// (nan-wire-reference.md 2.4).
public enum ServiceResponseFilterAddressSet: Hashable, Sendable {
    /// SRF Control bit 0 = 0: a list of 6-octet MAC addresses.
    case addressList([MACAddress])
    /// SRF Control bit 0 = 1: Bloom filter octets.
    case bloomFilter([UInt8])

    public var isBloomFilter: Bool {
        if case .bloomFilter = self { return true }
        return false
    }
}

/// The IEEE 802.3 CRC-32 (reflected polynomial 0xEDB88320, initial value and final XOR
/// 0xFFFFFFFF): the value zlib `crc32` and hostap `ieee80211_crc32` return. The SRF Bloom
/// filter hashes addresses with it (nan-wire-reference.md 2.4).
public enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 {
            value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1
        }
        return value
    }

    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc = (crc >> 8) ^ table[Int((crc ^ UInt32(byte)) & 0xFF)]
        }
        return crc ^ 0xFFFF_FFFF
    }
}
