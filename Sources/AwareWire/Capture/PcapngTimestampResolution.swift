/// The pcapng `if_tsresol` option value: b7 clear = units of 10^-v seconds, b7 set = units
/// of 2^-v seconds. Absent, the default is 6 (microseconds).
public struct PcapngTimestampResolution: Hashable, Sendable {
    public var rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let microseconds = Self(rawValue: 6)
    public static let nanoseconds = Self(rawValue: 9)

    /// `units` of this resolution in nanoseconds, or nil when that overflows 64 bits.
    public func nanoseconds(_ units: UInt64) -> UInt64? {
        let exponent = Int(rawValue & 0x7F)
        if rawValue & 0x80 == 0 {
            if exponent <= 9 {
                var factor: UInt64 = 1
                for _ in 0..<(9 - exponent) { factor *= 10 }
                let (value, overflow) = units.multipliedReportingOverflow(by: factor)
                return overflow ? nil : value
            }
            var value = units
            for _ in 0..<min(exponent - 9, 20) { value /= 10 }
            return value
        }
        // units * 10^9 / 2^exponent, in 128 bits so the product cannot overflow.
        let product = units.multipliedFullWidth(by: 1_000_000_000)
        if exponent == 0 { return product.high == 0 ? product.low : nil }
        if exponent >= 128 { return 0 }
        let high = product.high
        let low = product.low
        if exponent >= 64 { return high >> UInt64(exponent - 64) }
        guard high >> UInt64(exponent) == 0 else { return nil }
        return (high << UInt64(64 - exponent)) | (low >> UInt64(exponent))
    }
}
