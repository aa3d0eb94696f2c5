import AwareCore

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
