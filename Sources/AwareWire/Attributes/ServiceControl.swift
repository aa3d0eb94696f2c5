/// The SDA Service Control octet (nan-wire-reference.md 2.4; hostap `NAN_SRV_CTRL_*`).
///
/// | Bits | Meaning |
/// |---|---|
/// | 0-1 | Service Control Type |
/// | 2 | Matching Filter present |
/// | 3 | Service Response Filter present |
/// | 4 | Service Info present |
/// | 5 | Discovery Range Limited |
/// | 6 | Binding Bitmap present |
/// | 7 | reserved |
public struct ServiceControl: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The bits that say which optional SDA fields follow; an SDA derives them from its fields.
    public static let presenceBits: UInt8 = 0x5C

    public var type: ServiceControlType {
        get { ServiceControlType(control: rawValue) }
        set { rawValue = rawValue & ~0x03 | newValue.rawValue }
    }

    public var matchingFilterPresent: Bool {
        get { bit(2) }
        set { setBit(2, newValue) }
    }

    public var serviceResponseFilterPresent: Bool {
        get { bit(3) }
        set { setBit(3, newValue) }
    }

    public var serviceInfoPresent: Bool {
        get { bit(4) }
        set { setBit(4, newValue) }
    }

    public var discoveryRangeLimited: Bool {
        get { bit(5) }
        set { setBit(5, newValue) }
    }

    public var bindingBitmapPresent: Bool {
        get { bit(6) }
        set { setBit(6, newValue) }
    }

    public var reservedBit7: Bool {
        get { bit(7) }
        set { setBit(7, newValue) }
    }

    private func bit(_ index: UInt8) -> Bool { rawValue & (1 << index) != 0 }

    private mutating func setBit(_ index: UInt8, _ value: Bool) {
        if value { rawValue |= 1 << index } else { rawValue &= ~(1 << index) }
    }
}
