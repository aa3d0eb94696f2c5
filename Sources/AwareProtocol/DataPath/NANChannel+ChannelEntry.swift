import AwareCore
import AwareWire

extension NANChannel {
    /// The operating classes a NAN data channel uses (IEEE 802.11 Annex E, Table E-4, global
    /// classes): the channel set in the order a Channel Entry's bitmap counts it (bit k = the
    /// k-th channel of the set, nan-wire-reference.md 2.7), and the bandwidth. For 20 and 40 MHz
    /// classes a set member is the primary channel itself (classes 116, 119, 122, 126 have the
    /// secondary channel above it, 117, 120, 123, 127 below); for 80 and 160 MHz classes it is the
    /// centre of the block and the Primary Channel Bitmap says which 20 MHz channel of the block
    /// is primary (hostap `nan_get_control_channel`: centre - 30 MHz + 20 MHz x bit).
    private static let operatingClasses: [UInt8: (channels: [UInt8], bandwidthMHz: Int)] = [
        81: (Array(1...13), 20),
        115: ([36, 40, 44, 48], 20),
        116: ([36, 44], 40),
        117: ([40, 48], 40),
        118: ([52, 56, 60, 64], 20),
        119: ([52, 60], 40),
        120: ([56, 64], 40),
        121: ([100, 104, 108, 112, 116, 120, 124, 128, 132, 136, 140, 144], 20),
        122: ([100, 108, 116, 124, 132, 140], 40),
        123: ([104, 112, 120, 128, 136, 144], 40),
        124: ([149, 153, 157, 161], 20),
        125: ([149, 153, 157, 161, 165, 169, 173, 177], 20),
        126: ([149, 157, 165, 173], 40),
        127: ([153, 161, 169, 177], 40),
        128: ([42, 58, 106, 122, 138, 155, 171], 80),
        129: ([50, 114, 163], 160),
    ]

    /// The 20 MHz channel numbered `number` (2.4 GHz 1-13, 5 GHz 36-177); nil for others.
    public init?(number: UInt8) {
        switch number {
        case 1...13:
            self.init(number: number, frequencyMHz: 2_407 + 5 * UInt16(number), operatingClass: 81)
        case 36...177:
            let twenty = Self.operatingClasses.filter { $0.value.bandwidthMHz == 20 }.sorted { $0.key < $1.key }
            guard let operatingClass = twenty.first(where: { $0.value.channels.contains(number) })?.key else {
                return nil
            }
            self.init(number: number, frequencyMHz: 5_000 + 5 * UInt16(number), operatingClass: operatingClass)
        default:
            return nil
        }
    }

    /// The primary 20 MHz channel a Channel Entry names, with the entry's bandwidth; nil for an
    /// unknown class, an empty bitmap or a bit past the class's channel set. Only the lowest
    /// channel of the bitmap counts (a committed entry names one channel; hostap takes the same
    /// bit). An 80 or 160 MHz entry whose Primary Channel Bitmap is 0 names no primary (hostap
    /// refuses it); it is read here as primary = the lowest channel of the block, the reading that
    /// lets the entry be used at all.
    public static func primary(of entry: ChannelEntry) -> (channel: NANChannel, bandwidthMHz: Int)? {
        guard let layout = operatingClasses[entry.operatingClass] else { return nil }
        guard let bit = layout.channels.indices.first(where: { entry.channelBitmap & (1 << $0) != 0 }) else {
            return nil
        }
        let listed = Int(layout.channels[bit])
        let primary: Int
        switch layout.bandwidthMHz {
        case 80, 160:
            let lowest = listed - (layout.bandwidthMHz / 10 - 2)
            let index: Int = (0..<8).first(where: { entry.primaryChannelBitmap & (UInt8(1) << UInt8($0)) != 0 }) ?? 0
            guard index < layout.bandwidthMHz / 20 else { return nil }
            primary = lowest + 4 * index
        default:
            primary = listed
        }
        guard let channel = NANChannel(number: UInt8(truncatingIfNeeded: primary)) else { return nil }
        return (channel, layout.bandwidthMHz)
    }

    /// The primary 20 MHz channel of a Channel Entry (see ``primary(of:)``).
    public init?(channelEntry: ChannelEntry) {
        guard let primary = Self.primary(of: channelEntry) else { return nil }
        self = primary.channel
    }

    /// This channel as a 20 MHz Channel Entry (primary channel bitmap 0, as hostap writes it).
    public var channelEntry: ChannelEntry {
        channelEntry(bandwidthMHz: 20)
            ?? ChannelEntry(operatingClass: operatingClass, channelBitmap: 0, primaryChannelBitmap: 0)
    }

    /// A Channel Entry for this primary channel at `bandwidthMHz` (20, 40, 80 or 160): the class
    /// whose set holds the channel (or, for 80 and 160 MHz, its block) and the Primary Channel
    /// Bitmap bit of the channel in the block. nil when no class has it (2.4 GHz wider than
    /// 20 MHz, a 5 GHz channel without such a block).
    public func channelEntry(bandwidthMHz: Int) -> ChannelEntry? {
        let candidates = Self.operatingClasses.filter { $0.value.bandwidthMHz == bandwidthMHz }.sorted {
            $0.key < $1.key
        }
        for (operatingClass, layout) in candidates {
            for (bit, listed) in layout.channels.enumerated() {
                let primaryBit: Int
                switch bandwidthMHz {
                case 80, 160:
                    let lowest = Int(listed) - (bandwidthMHz / 10 - 2)
                    let offset = Int(number) - lowest
                    guard offset >= 0, offset % 4 == 0, offset / 4 < bandwidthMHz / 20 else { continue }
                    primaryBit = offset / 4
                default:
                    guard listed == number else { continue }
                    primaryBit = -1
                }
                return ChannelEntry(
                    operatingClass: operatingClass,
                    channelBitmap: 1 << UInt16(bit),
                    primaryChannelBitmap: primaryBit < 0 ? 0 : 1 << UInt8(primaryBit)
                )
            }
        }
        return nil
    }
}
