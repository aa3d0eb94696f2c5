import AwareCore
import AwareWire

/// How a data path initiator lays its schedule proposal out in the NAN Availability of a Data
/// Path Request (nan-wire-reference.md 2.7). Phones do not all write hostap's single 512 TU map:
/// iPhones send periods longer than 512 TU (esp-idf #16743: "iOS's availability fails to parse"),
/// a dual-band device sends one map per band, a device may offer slots as conditional, and
/// propose channels or bandwidths the accessory does not use. The runner's phone proposes in any
/// of these shapes (`aware-conform run --proposal-shape`), so an accessory is judged on what it
/// does with each.
///
/// Every shape carries the same intent, the performance mode's slots (the `base` schedule) on
/// the phone's data channel, so a data path can follow in each; what changes is the layout, and
/// with it what an accessory that reads only part of it would get wrong.
public enum NDPProposalShape: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// hostap's layout: Map ID 0, one committed entry (16 TU bits, 512 TU period) and one
    /// potential entry on the data channel (Fixtures/hostap-session-A frame 22).
    case basic
    /// The base slots over a 1024 TU period, less one slot in its last 512 TU: a pattern that
    /// only repeats every 1024 TU. An accessory that folds it onto 512 TU commits a slot the
    /// phone does not hold.
    case period1024 = "period-1024"
    case period2048 = "period-2048"
    case period4096 = "period-4096"
    /// 8192 TU, the longest period (Period code 7): a 64-octet time bitmap.
    case period8192 = "period-8192"
    /// 32 TU bits (Bit Duration code 1): each bit covers two 16 TU slots.
    case wideBits = "bits-32"
    /// The time bitmap starts 128 TU into the period (Start Offset 8).
    case startOffset = "start-offset"
    /// Two maps, as a dual-band phone sends: Map ID 1 with the slots on 2.4 GHz channel 6 first,
    /// then Map ID 2 with them on the data channel.
    case twoMaps = "two-maps"
    /// One committed slot on 2.4 GHz channel 6; the base slots on the data channel are conditional
    /// (committed if the accessory agrees, 2.7 Type b2).
    case conditional
    /// The base slots committed on channel 36, with the data channel only potential: an accessory
    /// that does not use channel 36 counter-proposes on its own.
    case otherChannel = "channel-36"
    /// The base slots on the data channel as its 80 MHz block (operating class 128).
    case bandwidth80 = "bw-80"
    /// The base slots on the data channel as its 160 MHz block (operating class 129).
    case bandwidth160 = "bw-160"

    public var description: String { rawValue }

    /// What the request carries in one shape, and what the initiator takes back.
    public struct Layout: Hashable, Sendable {
        /// The NAN Availability attributes of the request, one per map.
        public var attributes: [AvailabilityAttribute]
        /// The slots the phone could schedule on the accessory's data channel: its committed and
        /// conditional slots there (empty when it proposes that channel only as potential).
        public var proposal: NDPSchedule
        /// What the phone can do on the data channel: a counter-proposal inside it is taken.
        public var potential: NDPSchedule
        /// The committed slots name another channel than the data channel: an accessory on the
        /// data channel has to counter-propose.
        public var proposedElsewhere: Bool
    }

    /// The layout of `base` (the phone's 512 TU schedule on its data channel) in this shape.
    public func layout(base: NDPSchedule, style: NDPAvailabilityStyle) -> Layout {
        let channel = base.channel
        let full = NDPSchedule(channel: channel, slots: Array(0..<NDPSchedule.slotsPerPeriod))
        func attribute(_ mapID: UInt8, _ entries: [AvailabilityEntry]) -> AvailabilityAttribute {
            AvailabilityAttribute(
                sequenceID: style.sequenceID,
                mapID: mapID,
                committedChanged: true,
                potentialChanged: true,
                entries: entries
            )
        }
        func single(_ proposal: NDPSchedule, bitmap: TimeBitmap? = nil) -> Layout {
            var committed = proposal.entry(.committed, style: style)
            if let bitmap { committed.timeBitmap = bitmap }
            let potential = NDPSchedule(
                channel: channel,
                slots: full.slots,
                bandwidthMHz: proposal.bandwidthMHz
            )
            return Layout(
                attributes: [attribute(0, [committed, potential.entry(.potential, style: style)])],
                proposal: proposal,
                potential: full,
                proposedElsewhere: false
            )
        }
        switch self {
        case .basic:
            return single(base)
        case .period1024, .period2048, .period4096, .period8192:
            return single(base.thinned(toPeriodSlots: periodSlots))
        case .wideBits:
            // Bit i covers slots 2i and 2i + 1: every pair holding a base slot.
            var bits = [UInt8](repeating: 0, count: 2)
            for slot in base.slots { bits[slot / 16] |= 1 << UInt8((slot / 2) % 8) }
            let pairs = base.slots.flatMap { [$0 / 2 * 2, $0 / 2 * 2 + 1] }
            let bitmap = TimeBitmap(control: TimeBitmapControl(bitDuration: .tu32, period: .tu512), bitmap: bits)
            return single(NDPSchedule(channel: channel, slots: pairs), bitmap: bitmap)
        case .startOffset:
            var shifted = base
            shifted.startOffset = 8
            return single(shifted)
        case .twoMaps:
            let home = NDPSchedule(channel: .channel6, slots: base.slots)
            let homeFull = NDPSchedule(channel: .channel6, slots: full.slots)
            return Layout(
                attributes: [
                    attribute(1, [home.entry(.committed, style: style), homeFull.entry(.potential, style: style)]),
                    attribute(2, [base.entry(.committed, style: style), full.entry(.potential, style: style)]),
                ],
                proposal: base,
                potential: full,
                proposedElsewhere: false
            )
        case .conditional:
            let home = NDPSchedule(channel: .channel6, slots: [base.slots.first ?? 0])
            return Layout(
                attributes: [
                    attribute(
                        0,
                        [
                            home.entry(.committed, style: style),
                            base.entry(.conditional, style: style),
                            full.entry(.potential, style: style),
                        ]
                    )
                ],
                proposal: base,
                potential: full,
                proposedElsewhere: false
            )
        case .otherChannel:
            let elsewhere = NDPSchedule(channel: NANChannel(number: 36) ?? .channel44, slots: base.slots)
            var potential = full.entry(.potential, style: style)
            if let entries = potential.bandChannelEntries, case .channels(let list) = entries.entries {
                potential.bandChannelEntries = BandChannelEntries(channels: [elsewhere.channel.channelEntry] + list)
            }
            return Layout(
                attributes: [attribute(0, [elsewhere.entry(.committed, style: style), potential])],
                proposal: NDPSchedule(channel: channel, slots: []),
                potential: full,
                proposedElsewhere: true
            )
        case .bandwidth80:
            var wide = base
            wide.bandwidthMHz = 80
            return single(wide)
        case .bandwidth160:
            var wide = base
            wide.bandwidthMHz = 160
            return single(wide)
        }
    }

    /// The period of the long-period shapes, in 16 TU slots.
    private var periodSlots: Int {
        switch self {
        case .period1024: 64
        case .period2048: 128
        case .period4096: 256
        case .period8192: 512
        default: NDPSchedule.slotsPerPeriod
        }
    }
}

extension NDPSchedule {
    /// This schedule repeated over `target` slots, less its last slot in the last 512 TU of the
    /// period: the pattern then repeats only every `target` slots (kept as it is when it has a
    /// single slot, which it cannot spare).
    func thinned(toPeriodSlots target: Int) -> NDPSchedule {
        let repeated = repeated(toPeriodSlots: target)
        guard slots.count > 1, let last = slots.last, target > periodSlots else { return repeated }
        var thinned = repeated
        thinned.slots.removeAll { $0 == target - periodSlots + last }
        return thinned
    }
}
