import AwareCore
import AwareWire

/// The NAN function offload path (``NL80211DiscoveryPath/functionOffload``): the roles keep
/// sending whole SDFs every discovery window; here each becomes a function the driver's
/// discovery engine runs, and each `NAN_MATCH` becomes the SDF the role would have received.
extension NL80211Radio {
    /// A role instance whose frame has not been sent for this long has ended (cancelled, TTL
    /// run out): the roles announce once per discovery window (512 TU, about 0.52 s), so this
    /// is about ten windows without one. The air has no other signal that an instance ended.
    static let functionIdleTimeout = Interval.seconds(Int64(5))
    /// How often idle functions are looked for while any exist.
    static let idleCheckPeriod = Interval.seconds(Int64(1))
    /// Synthetic SDFs kept while no station listens on channel 6; older ones are dropped.
    static let heldMatchLimit = 32
    /// The channel synthetic receptions arrive on: the 2.4 GHz discovery-window channel
    /// (channel 6, 2437 MHz), which is where a driver's engine runs its discovery windows.
    static let matchChannel = NANChannel.channel6

    func transmitOffloaded(_ request: TxRequest, from sender: Port, at now: Instant) {
        let translated: NL80211OffloadFrame
        do throws(NL80211OffloadError) {
            translated = try NL80211OffloadFrame(frame: request.frame)
        } catch {
            refuse(error, request, sender, now)
            return
        }
        // The frame was read as a management frame, so it holds A2 (octets 10..<16).
        guard request.frame.count >= 16, let owner = MACAddress(request.frame[10..<16]) else {
            report(acknowledged: false, for: request, to: sender, at: now)
            return
        }
        switch translated {
        case .authentication:
            guard pairingMissing.isEmpty else {
                refuse(.pairingUnavailable(missing: pairingMissing), request, sender, now)
                return
            }
            // Recorded already, with every frame the roles hand over on this path.
            transmitFrame(request, from: sender, at: now, recordsIt: false)
        case .function(let instanceID, let function, let lost):
            keep(function, instanceID: instanceID, owner: owner, lost: lost, request, sender, now)
        case .followUp(var function, let lost):
            var localInstanceID: UInt8 = 0
            if case .followUp(let local, let requestor, let destination) = function.kind {
                localInstanceID = local
                // The peer knows the local function by the instance ID the driver gave it.
                if let driverID = functions[owner]?[local]?.driverInstanceID {
                    function.kind = .followUp(
                        instanceID: driverID,
                        requestorInstanceID: requestor,
                        destination: destination
                    )
                }
            }
            do throws(RadioError) {
                let added = try add(function)
                followUps[added.cookie] = now
                armIdleCheck()
                offloadNoticeHandler?(
                    .functionAdded(
                        owner: owner.description,
                        instanceID: localInstanceID,
                        cookie: added.cookie,
                        lost: lost
                    )
                )
                report(acknowledged: true, for: request, to: sender, at: now)
            } catch {
                errorHandler?(error)
                report(acknowledged: false, for: request, to: sender, at: now)
            }
        }
    }

    /// Keeps one function per role instance: the first frame adds it, the same frame again
    /// only marks it alive, a changed one replaces it (`DEL_NAN_FUNCTION`, then
    /// `ADD_NAN_FUNCTION`). A solicited Publish for a publish that runs already is the driver's
    /// job (its `NAN_MATCH` of type subscribe says it replied), so it changes nothing; an
    /// unsolicited one adds its type to the running function's (`NL80211_NAN_FUNC_PUBLISH_TYPE`
    /// is a bitmap), so a publish that both answers and announces keeps both.
    private func keep(
        _ function: NL80211NANFunction,
        instanceID: UInt8,
        owner: MACAddress,
        lost: [String],
        _ request: TxRequest,
        _ sender: Port,
        _ now: Instant
    ) {
        var function = function
        if var existing = functions[owner]?[instanceID] {
            if case .publish(let type, let broadcast) = function.kind, type != .solicited,
                case .publish(let running, _) = existing.function.kind
            {
                function.kind = .publish(running.union(type), broadcast: broadcast)
            }
            let answersForTheDriver =
                if case .publish(let type, _) = function.kind, type == .solicited,
                    case .publish = existing.function.kind
                {
                    true
                } else {
                    false
                }
            if existing.function == function || answersForTheDriver {
                existing.lastRequested = now
                functions[owner]?[instanceID] = existing
                report(acknowledged: true, for: request, to: sender, at: now)
                return
            }
            delete(owner: owner, instanceID: instanceID, why: "the role changed its content")
        }
        do throws(RadioError) {
            var added = try add(function)
            added.lastRequested = now
            functions[owner, default: [:]][instanceID] = added
            offloadNoticeHandler?(
                .functionAdded(owner: owner.description, instanceID: instanceID, cookie: added.cookie, lost: lost)
            )
            armIdleCheck()
            report(acknowledged: true, for: request, to: sender, at: now)
        } catch {
            errorHandler?(error)
            report(acknowledged: false, for: request, to: sender, at: now)
        }
    }

    /// `ADD_NAN_FUNCTION`; the reply carries the cookie and, in a nested `NL80211_ATTR_NAN_FUNC`,
    /// the instance ID (`nl80211_nan_add_func`).
    private func add(_ function: NL80211NANFunction) throws(RadioError) -> NL80211OffloadedFunction {
        let request = try NL80211Request.addNANFunction(familyID: familyID, device: device, function: function)
        guard let reply = try commands.perform(request).first else {
            throw RadioError.missingAttribute(command: request.message.command, attribute: Self.cookieType)
        }
        let cookie = try reply.required(NL80211Constants.Attribute.cookie).u64Value()
        let instanceKey = NL80211Constants.NANFunctionAttribute.instanceID.rawValue
        let driverID = try reply.attribute(NL80211Constants.Attribute.nanFunction.rawValue)?.nestedAttributes()
            .first { $0.type == instanceKey }?.u8Value()
        return NL80211OffloadedFunction(
            function: function,
            cookie: cookie,
            driverInstanceID: driverID,
            lastRequested: wallClock.now
        )
    }

    private func delete(owner: MACAddress, instanceID: UInt8, why: String) {
        guard let entry = functions[owner]?.removeValue(forKey: instanceID) else { return }
        if functions[owner]?.isEmpty == true { functions[owner] = nil }
        do throws(RadioError) {
            _ = try commands.perform(.deleteNANFunction(familyID: familyID, device: device, cookie: entry.cookie))
        } catch {
            // The driver may have ended it a moment ago (TTL): nothing left to undo.
            errorHandler?(error)
        }
        offloadNoticeHandler?(
            .functionDeleted(owner: owner.description, instanceID: instanceID, cookie: entry.cookie, why: why)
        )
    }

    func deleteFunctions(of owner: MACAddress, why: String) {
        for instanceID in (functions[owner] ?? [:]).keys.sorted() {
            delete(owner: owner, instanceID: instanceID, why: why)
        }
    }

    private func armIdleCheck() {
        guard idleCheck == nil else { return }
        idleCheck = wallClock.schedule(at: wallClock.now + Self.idleCheckPeriod) { [weak self] in
            guard let self else { return }
            self.idleCheck = nil
            self.deleteIdleFunctions(at: self.wallClock.now)
        }
    }

    /// Deletes the functions whose frame the roles stopped sending, and follow-ups the driver
    /// has not reported ended within the same time (whether a driver ends a follow-up function
    /// once it is sent is unverified); keeps checking while any remain.
    func deleteIdleFunctions(at now: Instant) {
        guard !isClosed else { return }
        for owner in functions.keys.sorted(by: { $0.octets.lexicographicallyPrecedes($1.octets) }) {
            for (instanceID, entry) in (functions[owner] ?? [:]).sorted(by: { $0.key < $1.key })
            where entry.lastRequested + Self.functionIdleTimeout <= now {
                delete(owner: owner, instanceID: instanceID, why: "the role stopped sending it")
            }
        }
        for (cookie, added) in followUps.sorted(by: { $0.key < $1.key }) where added + Self.functionIdleTimeout <= now {
            followUps[cookie] = nil
            do throws(RadioError) {
                _ = try commands.perform(.deleteNANFunction(familyID: familyID, device: device, cookie: cookie))
            } catch {
                errorHandler?(error)
            }
        }
        if !functions.isEmpty || !followUps.isEmpty { armIdleCheck() }
    }

    func functionTerminated(cookie: UInt64, instanceID: UInt8, reason: UInt8) {
        followUps[cookie] = nil
        for (owner, instances) in functions {
            for (key, entry) in instances where entry.cookie == cookie {
                functions[owner]?[key] = nil
                if functions[owner]?.isEmpty == true { functions[owner] = nil }
            }
        }
        offloadNoticeHandler?(.functionTerminated(cookie: cookie, instanceID: instanceID, reason: reason))
    }

    /// A match becomes the SDF the role would have received, addressed to the station whose
    /// function matched, on channel 6.
    func receive(_ match: NL80211NANMatch) {
        let found = functions.lazy.compactMap { owner, instances in
            instances.first { $0.value.cookie == match.cookie }.map { (owner, $0.key, $0.value) }
        }.first
        guard let (owner, instanceID, entry) = found, let serviceID = ServiceID(entry.function.serviceID) else {
            reportOnce(.matchForUnknownFunction(cookie: match.cookie))
            return
        }
        do throws(RadioError) {
            let frame = try match.serviceDiscoveryFrame(
                serviceID: serviceID,
                localInstanceID: instanceID,
                localAddress: owner
            )
            heldMatches.append(frame)
            if heldMatches.count > Self.heldMatchLimit { heldMatches.removeFirst() }
            deliverHeldMatches()
        } catch {
            errorHandler?(error)
        }
    }

    /// Hands held synthetic SDFs to the stations listening on channel 6, if any do.
    func deliverHeldMatches() {
        guard !isClosed, !heldMatches.isEmpty else { return }
        let listeners = ports.filter { $0.attached && $0.listeningChannels.contains(Self.matchChannel) }
        guard !listeners.isEmpty else { return }
        let frames = heldMatches
        heldMatches = []
        let now = wallClock.now
        for frame in frames {
            for tap in taps {
                tap.air(carried: frame, on: Self.matchChannel, signalDBm: Self.assumedSignalDBm, at: now)
            }
            let reception = Reception(
                frame: frame,
                info: RxInfo(channel: Self.matchChannel, rssiDBm: Self.assumedSignalDBm, timestamp: now)
            )
            for port in listeners where port.attached { port.receive(reception) }
        }
    }

    private func refuse(_ error: NL80211OffloadError, _ request: TxRequest, _ sender: Port, _ now: Instant) {
        reportOnce(error)
        report(acknowledged: false, for: request, to: sender, at: now)
    }

    private func reportOnce(_ error: NL80211OffloadError) {
        guard reportedOffloadErrors.insert(error).inserted else { return }
        errorHandler?(.invalidRequest(error.description))
    }
}

// MARK: - NL80211OffloadedFunction

/// A function this radio added on the offload path for one role instance: what was sent, the
/// cookie the kernel gave it (for `DEL_NAN_FUNCTION` and to recognise its `NAN_MATCH`
/// events), the instance ID the driver uses for it on the air, and when the role last sent
/// the frame it stands for.
struct NL80211OffloadedFunction: Hashable, Sendable {
    var function: NL80211NANFunction
    var cookie: UInt64
    /// `NL80211_NAN_FUNC_INSTANCE_ID` from the `ADD_NAN_FUNCTION` reply, when it carried one.
    var driverInstanceID: UInt8?
    var lastRequested: Instant
}
