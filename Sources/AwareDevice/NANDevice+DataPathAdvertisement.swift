import AwareCore
import AwareProtocol
import AwareWire

extension NANDevice {
    /// Starts (or, with nil, stops) advertising data paths in the SDFs of the device's data-path
    /// services: its Device Capability and a NAN Availability whose potential entry is `offer`
    /// and whose committed entry is the schedule of its open data paths (nan-wire-reference.md
    /// 2.6, 2.7, 4.1).
    public func advertiseDataPaths(offering offer: NDPSchedule?) {
        dataPathOffer = offer
        refreshDataPathAdvertisement()
    }

    /// The Device Capability `peer` last sent, if any.
    public func peerCapability(_ peer: MACAddress) -> DeviceCapabilityAttribute? { peerCapabilities[peer] }

    /// A Sequence ID for the NAN Availability of a data-path NAF about to be built: one newer
    /// than any sent so far, since the NAF's committed schedule is news to the peer (2.7). The
    /// SDFs keep their availability under its older ID, which a peer that has the NAF's ignores,
    /// until its content changes; then it takes an ID newer than the NAF's.
    public func nextAvailabilitySequenceID() -> UInt8 {
        availabilitySequenceID &+= 1
        return availabilitySequenceID
    }

    /// Rebuilds what the discovery machine puts in SDFs from the offer, the open data paths and
    /// the capability.
    func refreshDataPathAdvertisement() {
        guard let offer = dataPathOffer else {
            discovery.dataPathAdvertisement = nil
            return
        }
        // The union of every open data path's slots, over the longest of their periods (2.7).
        var committed = NDPSchedule(channel: offer.channel, slots: [], startOffset: offer.startOffset)
        for link in dataLinks where link.channel.number == offer.channel.number {
            let own = NDPSchedule(
                channel: offer.channel,
                slots: Array(link.slots),
                startOffset: offer.startOffset,
                periodSlots: link.periodSlots
            )
            let period = max(committed.periodSlots, own.periodSlots)
            committed = NDPSchedule(
                channel: offer.channel,
                slots: committed.repeated(toPeriodSlots: period).slots + own.repeated(toPeriodSlots: period).slots,
                startOffset: offer.startOffset,
                periodSlots: period
            )
        }
        var entries: [AvailabilityEntry] = []
        let style = NDPAvailabilityStyle()
        if !committed.slots.isEmpty {
            entries.append(committed.normalized.availabilityEntry(committed: true, style: style))
        }
        entries.append(offer.availabilityEntry(committed: false, style: style))
        var availability = AvailabilityAttribute(
            sequenceID: availabilitySequenceID,
            mapID: 0,
            committedChanged: true,
            potentialChanged: true,
            entries: entries
        )
        if let advertised = advertisedAvailability {
            if advertised.entries == availability.entries {
                availability.sequenceID = advertised.sequenceID
            } else {
                availabilitySequenceID &+= 1
                availability.sequenceID = availabilitySequenceID
            }
        }
        advertisedAvailability = availability
        discovery.dataPathAdvertisement = DataPathAdvertisement(
            deviceCapability: deviceCapability,
            availability: availability
        )
    }

    /// Keeps the Device Capability of an SDF or NAF's transmitter (hostap
    /// `nan_parse_device_attrs`, for every NAF and every SDF it hears).
    func notePeerCapability(_ frame: ReceivedFrame) {
        let attributes: [NANAttribute]
        switch frame.frame.body {
        case .serviceDiscovery(let sdf): attributes = sdf.attributes
        case .nanAction(let naf): attributes = naf.attributes
        default: return
        }
        for case .deviceCapability(let capability) in attributes {
            let peer = frame.transmitter
            if peerCapabilities[peer] == nil, peerCapabilities.count >= Self.peerCapabilityLimit {
                peerCapabilities.removeAll(keepingCapacity: true)
            }
            peerCapabilities[peer] = capability
            return
        }
    }
}
