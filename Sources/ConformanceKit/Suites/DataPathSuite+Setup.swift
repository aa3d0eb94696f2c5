import AwareDevice
import AwareProtocol
import AwareWire

extension DataPathSuite.Builder {
    /// `WA/NDP`: setting data paths up, refusing the ones the profile forbids, tearing them down.
    func setup() throws -> [ConformanceTest] {
        [
            try test(
                "WA/NDP/BV-01",
                "A paired phone gets a secured data path and reaches the accessory on it: neighbour discovery, "
                    + "echo, and its service (a TCP connection to a _tcp port, the profile's telemetry)",
                brokenBy: ["ndp-bad-m4-mic"],
                steps: [.echoTraffic],
                conditional: [ConditionalFaults(["tcp-port-closed"], when: .tcpService)]
            ) { context, suite in
                let (scenario, result) = try suite.openPaired(context)
                defer { scenario.finish() }
                let link = try suite.requireLink(context, scenario, result)
                context.expect(link.security != nil, "the data path is secured (CSIA/SCIA/SKDA), got an open one")
                if let suite = link.security {
                    context.expect(
                        [7, 8].contains(suite.rawValue),
                        "the data path uses a pairing cipher suite (CSID 7 or 8), got CSID \(suite.rawValue)"
                    )
                }
                context.expectEqual(
                    link.peerInterfaceIdentifier?.count,
                    8,
                    "octets of the accessory's IPv6 interface identifier in its NDPE"
                )
                try suite.reach(context, scenario, link)
                try suite.reachService(context, scenario, link, port: suite.appPort(context, scenario, link))
            },
            try test(
                "WA/NDP/BI-01",
                "A secured data path request from a phone that never paired is refused (reason 8)",
                brokenBy: ["ndp-accept-unpaired"],
                steps: [.discovery]
            ) { context, suite in
                let scenario = try suite.pairing.open(context)
                defer { scenario.finish() }
                let result = try suite.discover(context, scenario, service: try suite.facts(context).service)
                let (_, outcome) = try suite.request(context, scenario, result, security: .unpaired)
                guard case .failed(let failure) = outcome else {
                    context.fail("expected a refusal with reason 8 (SECURITY_POLICY), got \(outcome)")
                    return
                }
                context.expectEqual(
                    failure.kind,
                    .rejectedByPeer(.securityPolicy),
                    "the accessory's answer to a phone without a pairing"
                )
            },
            try test(
                "WA/NDP/BI-02",
                "An open data path request is refused when the profile demands security (reason 8)",
                brokenBy: ["ndp-accept-open"],
                steps: [.pairedExchange],
                // A profile that accepts open data paths skips the test.
                onlyIf: [ProfileCondition("the profile demands security") { $0?.dataPath?.allowsOpen != true }]
            ) { context, suite in
                if try suite.facts(context).allowsOpen { try context.skip("the profile allows open data paths") }
                let (scenario, result) = try suite.openPaired(context)
                defer { scenario.finish() }
                let (_, outcome) = try suite.request(context, scenario, result, security: .open)
                guard case .failed(let failure) = outcome else {
                    context.fail("expected a refusal with reason 8 (SECURITY_POLICY), got \(outcome)")
                    return
                }
                context.expectEqual(failure.kind, .rejectedByPeer(.securityPolicy), "the answer to an open request")
            },
            try test(
                "WA/NDP/BI-03",
                "With as many phones holding data paths as the accessory serves at once, one more paired phone's "
                    + "request is refused (reason 2) and the others keep theirs",
                // Decided when the catalogue is built for the profile, so `list` tells: one paired
                // phone more than the accessory serves at once, and few enough to bring up.
                requires: [
                    .dataPathPeerLimit(atMost: DataPathSuite.peerLimitTested),
                    .pairedDevices(atLeast: (target.capabilities.profile?.maxDataPathPeers ?? 1) + 1),
                ],
                // The fault ignores the next phone instead of refusing it: no reason 2, and with a
                // limit of two the second phone gets no data path at all.
                brokenBy: ["ndp-single-peer"],
                steps: [.echoTraffic],
                onlyIf: [.servesFewPhones]
            ) { context, suite in
                let profile = try context.require(context.capabilities.profile, "the accessory's profile")
                try suite.expectPeerLimit(context, limit: profile.maxDataPathPeers)
            },
            try test(
                "WA/NDP/BV-02",
                "A data path comes back after the phone terminated the last one",
                brokenBy: ["ndp-stale-after-termination"],
                steps: [.echoTraffic]
            ) { context, suite in
                let (scenario, result) = try suite.openPaired(context)
                defer { scenario.finish() }
                let first = try suite.requireLink(context, scenario, result)
                scenario.session.perform { scenario.phone.dataPaths.terminate(first.id) }
                scenario.pass(.milliseconds(500))
                let second = try suite.requireLink(context, scenario, result)
                context.expect(second.ndpID != first.ndpID, "the new data path has a new NDP ID")
                try suite.reach(context, scenario, second)
            },
            try test(
                "WA/NDP/BV-03",
                "A schedule that does not fit gets a counter-proposal, and the data path runs on it",
                // Only the bulk schedule leaves slots out: in realtime the accessory is available in
                // every slot, and any proposal on its channel fits.
                mode: .bulk,
                brokenBy: ["ndl-no-counter-proposal"],
                steps: [.echoTraffic]
            ) { context, suite in
                let (scenario, result) = try suite.openPaired(context, mode: .bulk)
                defer { scenario.finish() }
                // The bulk blocks shifted by three slots: nothing in common with the accessory's
                // bulk schedule (slots 1, 2, 9, 10, ...), all of it in the phone's potential.
                let proposal = NDPSchedule(slots: [4, 5, 12, 13, 20, 21, 28, 29])
                let link = try suite.requireLink(context, scenario, result, mode: .bulk, proposal: proposal)
                let offered = Set(PerformanceMode.bulk.availableSlots)
                context.expect(
                    Set(link.schedule.slots).isSubset(of: offered) && !link.schedule.slots.isEmpty,
                    "the agreed schedule is the accessory's counter-proposal (within slots \(offered.sorted())), got "
                        + "\(link.schedule.slots)"
                )
                try suite.reach(context, scenario, link)
            },
            try test(
                "WA/NDP/BV-04",
                "Every data frame from the accessory is protected with the data path's key",
                brokenBy: ["ndp-plaintext-data"],
                steps: [.echoTraffic]
            ) { context, suite in
                let (scenario, result) = try suite.openPaired(context)
                defer { scenario.finish() }
                let link = try suite.requireLink(context, scenario, result)
                try suite.reach(context, scenario, link)
                // Forty echo replies of 100 octets: the accessory's stack sends them, as any stack does.
                let echoes = try suite.echo(context, scenario, link, count: 40, rateHz: 20, size: 100)
                let answered = echoes.filter { $0.repliedAt != nil }.count
                let statistics = scenario.read { phone in phone.dataPaths.statistics(link.id) } ?? DataLinkStatistics()
                context.expectEqual(statistics.unprotectedDropped, 0, "unprotected data frames from the accessory")
                context.expectEqual(statistics.authenticationFailures, 0, "data frames that failed their MIC")
                context.expect(
                    answered * 2 >= echoes.count && answered > 0,
                    "the echo replies arrived over the protected data path: \(answered) of \(echoes.count)"
                )
            },
            try test(
                "WA/NDP/BV-05",
                "Two paired phones hold data paths at the same time",
                requires: [.pairedDevices(atLeast: 2), .dataPathPeers(atLeast: 2)],
                brokenBy: ["ndp-single-peer"],
                steps: [.echoTraffic],
                onlyIf: [.servesTwoPhones]
            ) { context, suite in
                let (scenario, result) = try suite.openPaired(context)
                defer { scenario.finish() }
                let second = try scenario.addPhone(seed: context.seed &+ 7, address: DataPathSuite.secondPhoneAddress)
                defer { scenario.stop([second]) }
                let secondResult = try suite.discover(
                    context,
                    scenario,
                    service: try suite.facts(context).service,
                    phone: second
                )
                let outcome = try suite.pairing.pair(context, scenario, secondResult, phone: second)
                try context.require(outcome.result == .paired, "the second phone paired: \(outcome)")
                let first = try suite.requireLink(context, scenario, result)
                let other = try suite.requireLink(context, scenario, secondResult, phone: second)
                for (phone, link) in [(scenario.phone, first), (second, other)] {
                    try suite.reach(context, scenario, link, phone: phone)
                }
                let both = scenario.read { _ in
                    scenario.phone.dataPaths.outcomes[first.id]?.link != nil
                        && second.dataPaths.outcomes[other.id]?.link != nil
                }
                context.expect(both, "both data paths are still up")
            },
        ]
    }
}

extension DataPathSuite.Builder {
    /// WA/NDP/BI-03: `limit` paired phones hold data paths, one more paired phone asks for one.
    /// A responder out of room refuses with RESOURCE_LIMITATION (2, nan-wire-reference.md 2.11)
    /// and leaves the data paths it holds alone.
    fileprivate func expectPeerLimit(_ context: TestContext, limit: Int) throws {
        let (scenario, result) = try openPaired(context)
        defer { scenario.finish() }
        var added: [Phone] = []
        defer { scenario.stop(added) }
        let service = try facts(context).service
        // Phone `index` (from 1; the scenario's phone is 0) joins, finds the accessory and pairs.
        let pairedPhone = { (index: Int) throws -> (Phone, DiscoveryResult) in
            let phone = try scenario.addPhone(
                seed: context.seed &+ 7 &+ UInt64(index - 1),
                address: DataPathSuite.phoneAddress(index)
            )
            added.append(phone)
            let found = try discover(context, scenario, service: service, phone: phone)
            let outcome = try pairing.pair(context, scenario, found, phone: phone)
            try context.require(outcome.result == .paired, "phone \(index + 1) paired: \(outcome)")
            return (phone, found)
        }
        var holders = [(phone: scenario.phone, link: try requireLink(context, scenario, result))]
        for index in 1..<limit {
            let (phone, found) = try pairedPhone(index)
            holders.append((phone, try requireLink(context, scenario, found, phone: phone)))
        }
        let (extra, found) = try pairedPhone(limit)
        let (_, outcome) = try request(context, scenario, found, phone: extra)
        guard case .failed(let failure) = outcome else {
            context.fail(
                "phone \(limit + 1), one more than the \(limit) the accessory serves at once, must be refused with "
                    + "reason 2 (RESOURCE_LIMITATION); got \(outcome)"
            )
            return
        }
        context.expectEqual(
            failure.kind,
            .rejectedByPeer(.resourceLimitation),
            "the answer to phone \(limit + 1) while \(limit) hold data paths"
        )
        for (index, holder) in holders.enumerated() {
            try reach(context, scenario, holder.link, phone: holder.phone)
            let up = scenario.read { _ in holder.phone.dataPaths.outcomes[holder.link.id]?.link != nil }
            context.expect(up, "phone \(index + 1)'s data path is still up after the refusal")
        }
    }
}
