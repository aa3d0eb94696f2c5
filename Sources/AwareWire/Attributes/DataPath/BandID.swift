/// A Band ID of a band/channel entry list or ULW (nan-wire-reference.md 2.7: 1 Sub-1 GHz,
/// 2 2.4 GHz, 4 5 GHz, 7 6 GHz). An open set: other values are kept, named "Reserved".
public struct BandID: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    public static let sub1GHz = Self(1)
    public static let band2_4GHz = Self(2)
    public static let band5GHz = Self(4)
    public static let band6GHz = Self(7)

    public var name: String {
        switch rawValue {
        case 1: "Sub-1 GHz"
        case 2: "2.4 GHz"
        case 4: "4.9 and 5 GHz"
        case 7: "6 GHz"
        default: "Reserved"
        }
    }

    public var decodedValue: DecodedValue { .named(UInt64(rawValue), name) }
}
