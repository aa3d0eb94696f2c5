import AwareDevice
import AwareProtocol
import AwareWire

extension DataPathSuite.Builder {
    /// `WA/NDP`: the accessory answers the schedule proposals phones send, not only hostap's single
    /// 512 TU map (nan-wire-reference.md 2.7; docs/reference/schedules.md). One paired phone proposes in
    /// every ``NDPProposalShape`` in turn, each time the bulk mode's slots laid out another way.
    ///
    /// What an answer must be, from hostap's responder (`nan_ndl_determine_status`): NDL Accepted
    /// when the proposal's committed and conditional slots on a channel the accessory uses meet
    /// its availability and the NDL QoS; NDL Continued (a counter-proposal) only when they do not.
    /// Either way the committed schedule of the response must be one the phone can keep: inside
    /// its committed and conditional slots when accepting, inside its potential availability when
    /// countering, on the proposal's primary channel and no wider than proposed.
    func schedules() throws -> [ConformanceTest] {
        [
            try test(
                "WA/NDP/BV-13",
                "The accessory answers proposals with 512-8192 TU periods, several maps, conditional entries, other "
                    + "channels and bandwidths: accepting what fits, counter-proposing what does not, and the data "
                    + "path carries traffic",
                budget: .seconds(600)
            ) { context, suite in
                let (scenario, result) = try suite.openPaired(context)
                defer { scenario.finish() }
                let advertised = try context.require(
                    result.availability.flatMap { NDPSchedule(potentialIn: $0) ?? NDPSchedule(availability: $0) },
                    "the publish carries a NAN Availability naming the accessory's data channel and slots"
                )
                for shape in NDPProposalShape.allCases {
                    try suite.judge(shape, advertised: advertised, context, scenario, result)
                }
            }
        ]
    }

    /// One proposal in `shape`, its answer judged, a ping over the data path, then the data path
    /// terminated so the next proposal starts afresh.
    private func judge(
        _ shape: NDPProposalShape,
        advertised: NDPSchedule,
        _ context: TestContext,
        _ scenario: Scenario,
        _ result: DiscoveryResult
    ) throws {
        let layout = shape.layout(base: NDPSchedule(mode: .bulk), style: NDPAvailabilityStyle())
        let (id, outcome) = try request(context, scenario, result, shape: shape)
        defer {
            scenario.session.perform { scenario.phone.dataPaths.terminate(id) }
            scenario.pass(PairingSuite.settleTime)
        }
        let link = try context.require(
            outcome.link,
            "[\(shape)] a data path came up with the proposal laid out as \(shape): got \(outcome)"
        )
        let naf = try context.require(
            try accessoryFrames(context, scenario, id).first { $0.naf.subtype == .dataPathResponse }?.naf,
            "[\(shape)] the accessory sent a Data Path Response"
        )
        let availabilities = naf.attributes.compactMap { if case .availability(let value) = $0 { value } else { nil } }
        let status = naf.attributes.lazy.compactMap { if case .ndl(let ndl) = $0 { ndl.status } else { nil } }.first
        let committed = try context.require(
            NDPSchedule.schedules(in: availabilities, kinds: [.committed])?.first {
                $0.channel.number == link.schedule.channel.number
            },
            "[\(shape)] the response's NAN Availability commits slots on the data path's channel "
                + "\(link.schedule.channel.number)"
        )
        context.log(
            "proposal_answered",
            [
                "shape": .string(shape.rawValue), "ndlStatus": .string(status.map { "\($0)" } ?? "none"),
                "channel": .unsigned(UInt64(committed.channel.number)),
                "bandwidthMHz": .unsigned(UInt64(committed.bandwidthMHz)),
                "periodTU": .unsigned(UInt64(committed.periodTU)), "slots": .unsigned(UInt64(committed.slots.count)),
            ]
        )
        let offered = layout.proposal
        let fits =
            !layout.proposedElsewhere && offered.channel.number == advertised.channel.number
            && (advertised.intersection(offered)?.slotsInFirstBlock ?? 0) >= PerformanceMode.bulk.availableSlots.count
        if fits {
            context.expect(
                status == .accepted,
                "[\(shape)] NDL Accepted: the proposal's committed and conditional slots on channel "
                    + "\(offered.channel.number) fit the availability the accessory publishes (hostap answers "
                    + "Accepted then); got \(status.map { "\($0)" } ?? "no NDL")"
            )
            context.expect(
                offered.contains(committed),
                "[\(shape)] the accessory commits only slots the phone proposed (over the proposal's "
                    + "\(offered.periodTU) TU period): committed \(committed.slots) of \(committed.periodTU) TU, "
                    + "proposed \(offered.slots)"
            )
            context.expect(
                committed.bandwidthMHz <= offered.bandwidthMHz,
                "[\(shape)] the committed channel is no wider than proposed: \(committed.bandwidthMHz) MHz of "
                    + "\(offered.bandwidthMHz) MHz"
            )
        } else if layout.proposedElsewhere {
            context.expect(
                status == .continued,
                "[\(shape)] NDL Continued: the phone committed slots only on a channel the accessory's published "
                    + "availability does not name, so it counter-proposes on its own; got "
                    + (status.map { "\($0)" } ?? "no NDL")
            )
            context.expect(
                layout.potential.contains(committed),
                "[\(shape)] the counter-proposal lies in the phone's potential availability on channel "
                    + "\(layout.potential.channel.number): committed \(committed.slots) on channel "
                    + "\(committed.channel.number)"
            )
        }
        let token = UInt8(truncatingIfNeeded: NDPProposalShape.allCases.firstIndex(of: shape) ?? 0)
        let pong = try control(context, scenario, link, .ping([token])) { $0 == .pong([token]) }
        context.expectEqual(pong, .pong([token]), "[\(shape)] the app's answer over the data path")
    }
}
