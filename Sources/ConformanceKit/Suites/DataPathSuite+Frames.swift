import AwareDevice
import AwareProtocol
import AwareWire

extension DataPathSuite.Builder {
    /// `WA/NDP` frames an independent peer plans a data path from (nan-wire-reference.md 2.6-2.10,
    /// 4.1): hostap's NAN code opens no data path with a peer that sent no Device Capability,
    /// reads NDP or NDPE by its NDPE bit, drops an NDL Response without a Selected NDC, and an
    /// iPhone plans from the same frames. Each test judges the accessory's own frames as they
    /// arrived at the phone (after the pairwise protection), not what the phone made of them.
    func frames() throws -> [ConformanceTest] {
        [
            try test(
                "WA/NDP/BV-06",
                "The publish and every data-path NAF carry the accessory's Device Capability, the publish its NAN "
                    + "Availability, the Data Path Response its HT capabilities",
                brokenBy: ["ndp-no-device-capability", "ndp-no-element-container"],
                steps: [.securedDataPath]
            ) { context, suite in
                let (scenario, result) = try suite.openPaired(context)
                defer { scenario.finish() }
                let capability = try context.require(
                    result.deviceCapability,
                    "the publish of a service that takes data paths carries a Device Capability attribute (0x0F)"
                )
                context.expect(
                    capability.committedDW24GHz != 0,
                    "the Device Capability commits to 2.4 GHz discovery windows (Committed DW Info b0-2 > 0), got "
                        + "0x\(String(capability.committedDWInfo, radix: 16))"
                )
                let availability = try context.require(
                    result.availability,
                    "the publish carries a NAN Availability attribute (0x12)"
                )
                let offered = try context.require(
                    NDPSchedule(potentialIn: availability) ?? NDPSchedule(availability: availability),
                    "the NAN Availability names one data channel and its slots"
                )
                let band: UInt8 = offered.channel.frequencyMHz >= 5_000 ? 0x10 : 0x04
                context.expect(
                    capability.supportedBands & band != 0,
                    "the Supported Bands (0x\(String(capability.supportedBands, radix: 16))) include the band of the "
                        + "data channel \(offered.channel.number) the availability names"
                )
                let (id, outcome) = try suite.request(context, scenario, result)
                _ = try context.require(outcome.link, "a paired data path came up: got \(outcome)")
                let frames = try suite.accessoryFrames(context, scenario, id)
                for (subtype, naf) in frames {
                    context.expect(
                        naf.attributes.contains { if case .deviceCapability = $0 { true } else { false } },
                        "the accessory's \(subtype) carries its Device Capability (hostap: \"no device "
                            + "capabilities\" stops the data path)"
                    )
                }
                // hostap configures the peer's station from the HT Capabilities in the Element Container
                // of the Request or Response, and tears a new data path down without them
                // (wpas_nan_configure_nmi_sta_capa: "No HT capabilities in peer elems").
                let response = frames.first { $0.naf.subtype == .dataPathResponse }?.naf
                let container = response?.attributes.lazy.compactMap {
                    if case .elementContainer(let value) = $0 { value } else { nil }
                }.first
                context.expect(
                    container?.htCapabilitiesBody != nil,
                    "the accessory's Data Path Response carries an Element Container (0x1D) with an HT Capabilities "
                        + "element (ID 45, 26 octets): hostap tears the data path down without one"
                )
            },
            try test(
                "WA/NDP/BV-07",
                "An accepting NDL Response selects an NDC inside the accessory's committed availability",
                brokenBy: ["ndl-no-ndc"],
                steps: [.securedDataPath]
            ) { context, suite in
                let (scenario, result) = try suite.openPaired(context)
                defer { scenario.finish() }
                let (id, outcome) = try suite.request(context, scenario, result)
                let link = try context.require(outcome.link, "a paired data path came up: got \(outcome)")
                let response = try suite.response(context, scenario, id)
                let ndl = try context.require(response.ndl, "the Data Path Response carries an NDL attribute")
                context.expect(
                    ndl.ndcAttributePresent,
                    "NDL Control b2 (NDC Attribute Present) is set in an NDL Response with status \(ndl.status)"
                )
                let selected = try context.require(
                    response.ndcs.first { $0.isSelected && !$0.scheduleEntries.isEmpty },
                    "the response carries an NDC attribute (0x13) with the Selected NDC bit and a schedule entry "
                        + "(hostap: \"Missing valid selected NDC\")"
                )
                let ndc = try context.require(
                    NDCSchedule(selected, channel: link.schedule.channel),
                    "the Selected NDC's time bitmap describes slots of the 512 TU period"
                )
                let committed = try context.require(
                    response.availability.flatMap { NDPSchedule(availability: $0) },
                    "the response's NAN Availability has a committed entry"
                )
                context.expect(
                    committed.contains(ndc.schedule),
                    "the NDC's slots \(ndc.schedule.slots) lie in the accessory's committed slots \(committed.slots)"
                )
            },
            try test(
                "WA/NDP/BV-08",
                "A phone whose Device Capability reads only NDP gets NDP, not NDPE, answers",
                brokenBy: ["ndp-always-ndpe"],
                steps: [.securedDataPath]
            ) { context, suite in
                let (scenario, result) = try suite.openPaired(context)
                defer { scenario.finish() }
                scenario.session.perform { scenario.phone.device.deviceCapability = .bench(ndpeSupported: false) }
                let (id, outcome) = try suite.request(context, scenario, result)
                for (subtype, naf) in try suite.accessoryFrames(context, scenario, id) {
                    let ndp = naf.attributes.contains { if case .ndp = $0 { true } else { false } }
                    let ndpe = naf.attributes.contains { if case .ndpExtension = $0 { true } else { false } }
                    context.expect(
                        ndp && !ndpe,
                        "the accessory's \(subtype) carries the NDP attribute (0x10), not NDPE (0x29): the phone's "
                            + "Device Capability clears the NDPE bit"
                    )
                }
                context.expect(outcome.link != nil, "the data path came up with NDP attributes: got \(outcome)")
            },
            try test(
                "WA/NDP/BV-09",
                "Every data-path NAF of the accessory has the cluster ID as A3",
                // An accessory that never joins the phone's cluster writes its own cluster's ID as A3.
                brokenBy: ["naf-a3-own-nmi", "ignore-beacons"],
                steps: [.pairedExchange]
            ) { context, suite in
                let (scenario, result) = try suite.openPaired(context)
                defer { scenario.finish() }
                let (id, _) = try suite.request(context, scenario, result)
                let cluster = try context.require(
                    scenario.read { $0.device.cluster?.clusterID },
                    "the phone is in a NAN cluster"
                )
                for (index, frame) in try suite.accessoryReceivedFrames(context, scenario, id).enumerated() {
                    context.expectEqual(
                        frame.frame.header.address3,
                        cluster,
                        "A3 of the accessory's data-path NAF \(index + 1) (nan-wire-reference.md 1.3: the cluster ID)"
                    )
                }
            },
            try test(
                "WA/NDP/BV-10",
                "An NDC the phone proposes keeps its NDC ID in the accessory's Selected NDC",
                brokenBy: ["ndl-ignore-proposed-ndc", "ndl-no-ndc"],
                steps: [.securedDataPath]
            ) { context, suite in
                let (scenario, result) = try suite.openPaired(context)
                defer { scenario.finish() }
                // Slot 10 is in both performance modes' schedules (PerformanceMode.availableSlots).
                let proposed = NDCSchedule(id: DataPathSuite.proposedNDCID, schedule: NDPSchedule(slots: [10]))
                let (id, outcome) = try suite.request(context, scenario, result, proposedNDC: proposed)
                _ = try context.require(outcome.link, "a paired data path came up: got \(outcome)")
                let response = try suite.response(context, scenario, id)
                let selected = try context.require(
                    response.ndcs.first { $0.isSelected },
                    "the response carries a Selected NDC"
                )
                context.expectEqual(selected.ndcID, proposed.id, "the Selected NDC's ID: the one the phone proposed")
                if response.ndl?.status == .accepted,
                    let schedule = NDCSchedule(selected, channel: proposed.schedule.channel)
                {
                    context.expectEqual(
                        schedule.schedule.slots,
                        proposed.schedule.slots,
                        "the slots of an NDC accepted as proposed (NDL Accepted)"
                    )
                }
            },
            try test(
                "WA/NDP/BV-11",
                "An accessory that discovers unsynchronized follows the phone's cluster: its data path runs in the "
                    + "committed slots of the phone's TSF",
                tags: ["usd"],
                // Committed slots are a premise only where the schedule leaves some out: in realtime
                // the accessory is available in every slot, whatever clock it counts them by.
                mode: .bulk,
                needsReconfigure: true,
                // An accessory that never joins the phone's cluster writes its own cluster's ID as A3.
                brokenBy: ["ndp-usd-own-slot-clock", "naf-a3-own-nmi", "ignore-beacons"],
                steps: [.echoTraffic]
            ) { context, suite in
                if case .unavailable(let reason) = context.capabilities.reconfigure {
                    try context.skip("needs the accessory in USD mode; \(reason)")
                }
                // The accessory discovers with USD; the phone is synchronized and forms the
                // cluster it anchors, with its own TSF. The data path's slots count from that TSF
                // on both sides (nan-wire-reference.md 2.7): the accessory must take it from the
                // phone's beacons, not from its own clock.
                let request = SessionRequest(
                    seed: context.seed,
                    variant: try suite.defaultMode(context) == .bulk ? nil : DataPathSuite.Builder.modeVariant(.bulk),
                    faults: suite.faults,
                    unsynchronized: true
                )
                let scenario = try Scenario(context, target: suite.target, request: request, phoneUnsynchronized: false)
                defer { scenario.finish() }
                let result = try suite.discover(context, scenario, service: try suite.facts(context).service)
                try suite.pairing.requirePairing(context, scenario, result, cached: false)
                let link = try suite.requireLink(context, scenario, result, mode: .bulk)
                let cluster = try context.require(scenario.read { $0.device.cluster?.clusterID }, "the phone's cluster")
                for (index, frame) in try suite.accessoryReceivedFrames(context, scenario, link.id).enumerated() {
                    context.expectEqual(
                        frame.frame.header.address3,
                        cluster,
                        "A3 of the accessory's data-path NAF \(index + 1): the phone's cluster, which it follows"
                    )
                }
                try suite.reach(context, scenario, link)
                let echoes = try suite.echo(context, scenario, link, count: 40, rateHz: 20, size: 200)
                let answered = echoes.filter { $0.repliedAt != nil }.count
                context.expect(
                    answered * 10 >= echoes.count * 9 && !echoes.isEmpty,
                    "at least 90 % of the phone's echo requests were answered in the committed slots: "
                        + "\(answered) of \(echoes.count)"
                )
            },
        ]
    }

    /// The accessory's data-path NAFs of data path `id`, as the phone received them.
    func accessoryReceivedFrames(
        _ context: TestContext,
        _ scenario: Scenario,
        _ id: DataLinkID
    ) throws -> [ReceivedFrame] {
        let frames = scenario.read { $0.dataPaths.receivedFrames[id] ?? [] }
        return try context.require(frames.isEmpty ? nil : frames, "the accessory answered the Data Path Request")
    }

    /// The same, as NAFs with their subtype's name.
    func accessoryFrames(
        _ context: TestContext,
        _ scenario: Scenario,
        _ id: DataLinkID
    ) throws -> [(subtype: String, naf: NANActionFrame)] {
        try accessoryReceivedFrames(context, scenario, id).compactMap { frame in
            guard case .nanAction(let naf) = frame.frame.body else { return nil }
            return ("\(naf.subtype)", naf)
        }
    }

    /// What the accessory's Data Path Response carried.
    func response(_ context: TestContext, _ scenario: Scenario, _ id: DataLinkID) throws -> ResponseAttributes {
        let naf = try context.require(
            try accessoryFrames(context, scenario, id).first { $0.naf.subtype == .dataPathResponse }?.naf,
            "the accessory sent a Data Path Response"
        )
        return ResponseAttributes(naf)
    }

    /// The schedule attributes of a Data Path Response.
    struct ResponseAttributes {
        var ndl: NDLAttribute?
        var ndcs: [NDCAttribute] = []
        var availability: AvailabilityAttribute?

        init(_ naf: NANActionFrame) {
            for attribute in naf.attributes {
                switch attribute {
                case .ndl(let value) where ndl == nil: ndl = value
                case .ndc(let value): ndcs.append(value)
                case .availability(let value) where availability == nil: availability = value
                default: continue
                }
            }
        }
    }
}
