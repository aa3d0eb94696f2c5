/// A channel NAN uses: the 2.4 GHz discovery channel 6 and the 5 GHz discovery channels
/// 149 (preferred) and 44 (nan-wire-reference.md 1.4).
public struct NANChannel: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var number: UInt8
    public var frequencyMHz: UInt16
    public var operatingClass: UInt8

    public init(number: UInt8, frequencyMHz: UInt16, operatingClass: UInt8) {
        self.number = number
        self.frequencyMHz = frequencyMHz
        self.operatingClass = operatingClass
    }

    public static let channel6 = NANChannel(number: 6, frequencyMHz: 2437, operatingClass: 81)
    public static let channel149 = NANChannel(number: 149, frequencyMHz: 5745, operatingClass: 124)
    public static let channel44 = NANChannel(number: 44, frequencyMHz: 5220, operatingClass: 115)

    /// The channel of a frequency, for the channels above; nil otherwise.
    public init?(frequencyMHz: UInt16) {
        switch frequencyMHz {
        case 2437: self = .channel6
        case 5745: self = .channel149
        case 5220: self = .channel44
        default: return nil
        }
    }

    public var is5GHz: Bool { frequencyMHz >= 5000 }

    public static func < (lhs: NANChannel, rhs: NANChannel) -> Bool { lhs.frequencyMHz < rhs.frequencyMHz }

    public var description: String { "channel \(number) (\(frequencyMHz) MHz)" }
}
