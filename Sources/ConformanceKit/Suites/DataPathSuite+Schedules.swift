import AwareDevice
import AwareProtocol
import AwareWire

extension DataPathSuite.Builder {
    /// `WA/NDP`: the accessory answers the schedule proposals phones send, not only hostap's single
    /// 512 TU map (nan-wire-reference.md 2.7; docs/reference/schedules.md). One paired phone proposes in
    /// every ``NDPProposalShape`` in turn, each time the slots of the accessory's default mode laid out
    /// another way (the mode it listens in, so the test runs against an accessory the runner cannot
    /// reconfigure).
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
                budget: .seconds(600),
                // It opens a data path per proposal shape, each after the last was terminated; its channel-36
                // proposal needs a counter-proposal on the accessory's channel.
                brokenBy: [
                    "ndl-fold-long-periods", "ndl-first-map-only", "ndl-ignore-conditional", "ndl-no-counter-proposal",
                    "ndp-stale-after-termination",
                ],
                steps: [.echoTraffic]
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
        // The phone lays its proposal out from the requested mode's slots (PhoneDataPaths): the same here.
        let mode = try defaultMode(context)
        let layout = shape.layout(base: NDPSchedule(mode: mode), style: NDPAvailabilityStyle())
        let (id, outcome) = try request(context, scenario, result, mode: mode, shape: shape)
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
            && (advertised.intersection(offered)?.slotsInFirstBlock ?? 0) >= mode.availableSlots.count
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
        try reach(context, scenario, link)
    }
}

extension DataPathSuite.Builder {
    /// `WA/NDP/BV-14`: the schedule of an established NDL changes (NAF subtypes 10-13;
    /// docs/reference/schedules.md, "Schedule updates"). hostap neither sends nor reads these frames;
    /// MediaTek's gen4m driver does, and the exchange is judged by its reading: a Schedule
    /// Request (NDL Request / Continued, a new dialog token) is answered with a Schedule Response
    /// (NDL Type Response, the same token); Accepted commits slots inside the proposal, Continued
    /// counter-proposes and waits for a Schedule Confirm. A Schedule Update Notification announces
    /// the sender's new committed schedule and gets no answer.
    ///
    /// The phone first asks to move the data path to every other one of its slots; then it
    /// announces the others. Both halves lie in the accessory's schedule, so the request should be
    /// accepted; after each change a stream from the accessory must reach the phone, which listens
    /// only in the new slots: an accessory that kept its old slots after the notification sends
    /// where the phone no longer listens.
    func scheduleUpdates() throws -> [ConformanceTest] {
        [
            try test(
                "WA/NDP/BV-14",
                "After a data path is up, the phone renegotiates its schedule with Schedule Request/Response/Confirm "
                    + "and traffic follows the new slots; an Update Notification is taken",
                budget: .seconds(180),
                brokenBy: ["ndl-ignore-schedule-request"],
                steps: [.echoTraffic]
            ) { context, suite in
                let (scenario, result) = try suite.openPaired(context)
                defer { scenario.finish() }
                let link = try suite.requireLink(context, scenario, result)
                try suite.reach(context, scenario, link)
                let accessory = link.peerNMI
                let slots = link.schedule.slots
                _ = try context.require(
                    slots.count >= 2 ? slots : nil,
                    "the data path commits at least two slots to split: \(slots)"
                )
                // Every other slot, then the others: the gaps stay as short as the data path's own.
                let channel = link.schedule.channel
                let even = slots.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
                let proposal = NDPSchedule(channel: channel, slots: even, bandwidthMHz: 20)
                let announced = NDPSchedule(
                    channel: channel,
                    slots: slots.filter { !even.contains($0) },
                    bandwidthMHz: 20
                )
                try suite.renegotiate(context, scenario, link, to: proposal)
                try suite.expectTraffic(context, scenario, link, "after the renegotiation")

                var sent = false
                scenario.session.perform {
                    sent = scenario.phone.dataPaths.notifyScheduleUpdate(to: accessory, committed: announced)
                }
                try context.require(sent, "the phone announced \(announced.slots)")
                scenario.pass(PairingSuite.settleTime)
                context.log(
                    "schedule_announced",
                    ["slots": .array(announced.slots.map { .unsigned(UInt64($0)) })]
                )
                try suite.expectTraffic(context, scenario, link, "after the Update Notification of \(announced.slots)")
            },
            try test(
                "WA/PERF/BV-07",
                "A data path switches to the other performance mode and back with schedule updates, where the profile "
                    + "offers both",
                tags: ["mode-switch", "phone-behaviour"],
                requires: [.performanceMode("bulk"), .performanceMode("realtime")],
                budget: .seconds(180),
                // The accessory that advertises bulk's schedule as realtime's has no realtime slots to
                // switch a bulk data path to.
                brokenBy: ["mode-switch-refused", "ndl-ignore-schedule-request", "perf-realtime-as-bulk"],
                steps: [.echoTraffic]
            ) { context, suite in
                // An app may switch a connection's mode while it runs (apple-peer-model.md 1.7): the
                // phone asks with a Schedule Request carrying the new mode's NDL QoS and schedule.
                let start = try suite.defaultMode(context)
                let (scenario, result) = try suite.openPaired(context)
                defer { scenario.finish() }
                let link = try suite.requireLink(context, scenario, result)
                try suite.reach(context, scenario, link)
                for mode in [start == .bulk ? PerformanceMode.realtime : .bulk, start] {
                    let proposal = NDPSchedule(mode: mode, channel: link.schedule.channel)
                    let answer = try suite.scheduleExchange(
                        context,
                        scenario,
                        link,
                        proposal: proposal,
                        qos: mode.ndlQoS
                    )
                    context.expect(
                        answer.ndl.status != .rejected,
                        "the switch to \(mode.rawValue) is accepted (the profile offers it); got \(answer.ndl.status), "
                            + "reason \(answer.ndl.reasonCode.rawValue)"
                    )
                    let agreed = try context.require(
                        answer.agreed,
                        "the data path moved to a \(mode.rawValue) schedule"
                    )
                    context.expect(
                        agreed.slots.count >= min(proposal.slots.count, NDPSchedule(mode: mode).slots.count),
                        "the \(mode.rawValue) schedule keeps the mode's slots: \(agreed.slots.count) of "
                            + "\(proposal.slots.count) proposed"
                    )
                    try suite.expectTraffic(context, scenario, link, "after the switch to \(mode.rawValue)")
                }
            },
            try test(
                "WA/PERF/BI-03",
                "A schedule update into a performance mode the profile does not offer is refused with reason 9, and "
                    + "the data path keeps its schedule",
                tags: ["mode-switch", "phone-behaviour"],
                needsReconfigure: true,
                budget: .seconds(180),
                brokenBy: ["mode-switch-any", "ndl-ignore-schedule-request"],
                steps: [.echoTraffic]
            ) { context, suite in
                // The accessory offers only its default mode here (a variant leaves the other out).
                let facts = try suite.facts(context)
                let mode = try suite.defaultMode(context)
                let serviceClass = try context.require(facts.serviceClasses[mode.rawValue], "the default mode's class")
                let variant = ProfileVariant([
                    .setField(
                        path: ["performance"],
                        json: "{\"default\": \"\(mode.rawValue)\", \"\(mode.rawValue)\": {\"serviceClass\": "
                            + "\"\(serviceClass)\"}}"
                    )
                ])
                let (scenario, result) = try suite.openPaired(context, variant: variant)
                defer { scenario.finish() }
                let link = try suite.requireLink(context, scenario, result)
                try suite.reach(context, scenario, link)
                let before = link.schedule
                let other: PerformanceMode = mode == .bulk ? .realtime : .bulk
                let answer = try suite.scheduleExchange(
                    context,
                    scenario,
                    link,
                    proposal: NDPSchedule(mode: other, channel: link.schedule.channel),
                    qos: other.ndlQoS
                )
                context.expectEqual(answer.ndl.status, .rejected, "the Schedule Response's NDL status")
                context.expectEqual(
                    answer.ndl.reasonCode,
                    .qosUnacceptable,
                    "the reason: QoS unacceptable (9), as for a data path request in that mode"
                )
                let now = scenario.read { $0.dataPaths.schedule(with: link.peerNMI) }
                context.expectEqual(now?.slots, before.slots, "the data path's slots after the refused switch")
                try suite.expectTraffic(context, scenario, link, "after the refused switch")
            },
        ]
    }

    /// The phone asks for `proposal`; the accessory's Schedule Response is judged.
    private func renegotiate(
        _ context: TestContext,
        _ scenario: Scenario,
        _ link: NDPLink,
        to proposal: NDPSchedule
    ) throws {
        let answer = try scheduleExchange(context, scenario, link, proposal: proposal)
        context.expect(
            answer.ndl.status == .accepted,
            "NDL Accepted: the proposal \(proposal.slots) lies inside the slots the accessory committed to the "
                + "data path; got \(answer.ndl.status)"
        )
        if answer.ndl.status == .accepted {
            let inside = answer.committed.map { proposal.contains($0) && !$0.slots.isEmpty } ?? false
            context.expect(
                inside,
                "the committed availability of the Accepted response lies inside the proposal \(proposal.slots): "
                    + "\((answer.committed?.slots).map { "\($0)" } ?? "none on channel \(proposal.channel.number)")"
            )
        }
        context.expect(answer.agreed != nil, "the phone's data path moved to the agreed schedule")
    }

    /// What became of one Schedule Request: the accessory's Schedule Response (its NDL attribute
    /// and committed availability on the proposal's channel), and the schedule the phone's data
    /// path moved to, if any.
    struct ScheduleAnswer {
        var ndl: NDLAttribute
        var committed: NDPSchedule?
        var agreed: NDPSchedule?
    }

    /// Sends a Schedule Request for `proposal` (with `qos`, a performance mode's NDL QoS) and
    /// waits for the accessory's answer.
    func scheduleExchange(
        _ context: TestContext,
        _ scenario: Scenario,
        _ link: NDPLink,
        proposal: NDPSchedule,
        qos: NDLQoSAttribute? = nil
    ) throws -> ScheduleAnswer {
        let accessory = link.peerNMI
        var started = false
        var before = 0
        var eventsBefore = 0
        scenario.session.perform {
            before = scenario.phone.dataPaths.receivedScheduleFrames[accessory]?.count ?? 0
            eventsBefore = scenario.phone.dataPaths.scheduleEvents.count
            started = scenario.phone.dataPaths.renegotiateSchedule(with: accessory, proposal: proposal, qos: qos)
        }
        try context.require(started, "the phone sent a Schedule Request for \(proposal.slots)")
        let token = scenario.read { $0.dataPaths.scheduleDialogToken(with: accessory) }
        // Three requests a second apart, then the phone gives up.
        _ = scenario.wait(.seconds(4)) { $0.dataPaths.scheduleEvents.count > eventsBefore }
        let response = try context.require(
            scenario.read { phone in
                (phone.dataPaths.receivedScheduleFrames[accessory] ?? []).dropFirst(before).lazy.compactMap {
                    frame -> NANActionFrame? in
                    guard case .nanAction(let naf) = frame.frame.body, naf.subtype == .scheduleResponse else {
                        return nil
                    }
                    return naf
                }.first
            },
            "the accessory answered the Schedule Request with a Schedule Response (NAF subtype 11)"
        )
        let message = try context.require(NDLScheduleMessage(response), "the Schedule Response parses")
        let ndl = try context.require(message.ndl, "the Schedule Response carries an NDL attribute")
        context.expectEqual(ndl.type, .response, "the NDL attribute's Type: Response (1)")
        context.expectEqual(ndl.dialogToken, token, "the NDL attribute's dialog token: the request's")
        let committed = message.schedule(on: proposal.channel)
        context.log(
            "schedule_answered",
            [
                "ndlStatus": .string("\(ndl.status)"), "dialogToken": .unsigned(UInt64(ndl.dialogToken)),
                "reason": .unsigned(UInt64(ndl.reasonCode.rawValue)),
                "committed": .array((committed?.slots ?? []).map { .unsigned(UInt64($0)) }),
            ]
        )
        let events = scenario.read { Array($0.dataPaths.scheduleEvents.dropFirst(eventsBefore)) }
        let agreed = events.lazy.compactMap { event -> NDPSchedule? in
            if case .updated(accessory, let schedule, false) = event { schedule } else { nil }
        }.first
        return ScheduleAnswer(ndl: ndl, committed: committed, agreed: agreed)
    }

    /// Echo both ways, while the phone listens and sends only in the NDL's slots now.
    private func expectTraffic(
        _ context: TestContext,
        _ scenario: Scenario,
        _ link: NDPLink,
        _ when: String
    ) throws {
        let echoes = try echo(context, scenario, link, count: 40, rateHz: 20, size: 200)
        let answered = echoes.filter { $0.repliedAt != nil }.count
        context.expect(
            answered * 10 >= echoes.count * 9 && !echoes.isEmpty,
            "\(when): at least 90 % of the phone's echo requests were answered in the new slots: "
                + "\(answered) of \(echoes.count)"
        )
    }
}
