import AwareCore
import AwareWire

extension DiscoveryEngine {
    /// Starts an instance's announcements. USD: the first one comes after a random phase in
    /// [0, announcement period), so that stations started together do not announce in step.
    /// Synchronized: in the window open now, if any; every later window announces on its own.
    mutating func startAnnouncing(
        _ role: ServiceRole,
        at index: Int,
        now: Instant,
        rng: inout some RandomNumberGenerator,
        actions: inout [DiscoveryAction]
    ) {
        guard case .unsynchronized = configuration.mode else {
            switch role {
            case .publish: announcePublish(at: index, now: now, rng: &rng, actions: &actions)
            case .subscribe: announceSubscribe(at: index, now: now, rng: &rng, actions: &actions)
            }
            return
        }
        let period = UInt64(clamping: configuration.announcementPeriod.nanoseconds)
        let phase = period > 0 ? UInt64.random(in: 0..<period, using: &rng) : 0
        let first = Instant(nanoseconds: now.nanoseconds &+ phase)
        let instanceID: UInt8
        switch role {
        case .publish:
            publishes[index].nextAnnouncement = first
            instanceID = publishes[index].instanceID
        case .subscribe:
            subscribes[index].nextAnnouncement = first
            instanceID = subscribes[index].instanceID
        }
        actions.append(.arm(.announce(instanceID: instanceID), at: first))
    }

    /// USD: send now and again about one announcement period later. Synchronized: send in the
    /// window open now, if any.
    mutating func announcePublish(
        at index: Int,
        now: Instant,
        rng: inout some RandomNumberGenerator,
        actions: inout [DiscoveryAction]
    ) {
        let instanceID = publishes[index].instanceID
        let next = announce(
            .publish,
            instanceID: instanceID,
            frame: publishFrame(publishes[index], requestor: nil),
            now: now,
            rng: &rng,
            actions: &actions
        )
        publishes[index].nextAnnouncement = next
        if let next { actions.append(.arm(.announce(instanceID: instanceID), at: next)) }
    }

    mutating func announceSubscribe(
        at index: Int,
        now: Instant,
        rng: inout some RandomNumberGenerator,
        actions: inout [DiscoveryAction]
    ) {
        let instanceID = subscribes[index].instanceID
        let next = announce(
            .subscribe,
            instanceID: instanceID,
            frame: subscribeFrame(subscribes[index]),
            now: now,
            rng: &rng,
            actions: &actions
        )
        subscribes[index].nextAnnouncement = next
        if let next { actions.append(.arm(.announce(instanceID: instanceID), at: next)) }
    }

    /// Returns when the next announcement is due (USD only).
    private mutating func announce(
        _ role: ServiceRole,
        instanceID: UInt8,
        frame: ManagementFrame,
        now: Instant,
        rng: inout some RandomNumberGenerator,
        actions: inout [DiscoveryAction]
    ) -> Instant? {
        switch configuration.mode {
        case .unsynchronized(let channel):
            actions.append(.transmit(request(frame, on: channel)))
            return now + jitteredAnnouncementPeriod(rng: &rng)
        case .synchronized:
            if let window = openWindows.first {
                enqueue(.announcement(role, instanceID: instanceID), in: window, now: now, rng: &rng)
                armWindowTransmit(on: window.channel, actions: &actions)
            }
            return nil
        }
    }

    /// The announcement period ± 10 %, uniformly. hostap keeps a fixed period but draws the
    /// length of each USD publisher state at random (N × 100 TU, N in 5..<10, nan-wire-reference.md
    /// 1.5), so two devices do not stay in step for long; a jitter of a tenth of the period
    /// gives the same effect here without modelling the multi-channel state: two announcement
    /// series that start together drift apart by several frame airtimes within one period.
    func jitteredAnnouncementPeriod(rng: inout some RandomNumberGenerator) -> Interval {
        let period = configuration.announcementPeriod
        let spread = period.nanoseconds / 10
        guard spread > 0 else { return period }
        return period + Interval(nanoseconds: Int64.random(in: -spread...spread, using: &rng))
    }

    /// Sends a frame that is not a periodic announcement (a solicited reply, a follow-up): at
    /// once in USD or inside an open window, else at a random instant of the next window.
    /// Returns the TX-status cookie when the frame left now.
    @discardableResult
    mutating func send(
        _ frame: ManagementFrame,
        followUpToken: UInt32? = nil,
        attempt: Int = 1,
        actions: inout [DiscoveryAction]
    ) -> UInt64? {
        let channel: NANChannel
        switch configuration.mode {
        case .unsynchronized(let usdChannel):
            channel = usdChannel
        case .synchronized:
            // A retry waits for the next window: the peer was not listening in this one.
            guard attempt == 1, let window = openWindows.first else {
                pending.append(QueuedFrame(frame: frame, followUpToken: followUpToken, attempt: attempt))
                return nil
            }
            channel = window.channel
        }
        let request = request(frame, on: channel)
        actions.append(.transmit(request))
        if let followUpToken {
            followUpTokens[request.cookie] = followUpToken
            followUpsInFlight[request.cookie] = (frame, attempt)
        }
        return request.cookie
    }

    // MARK: Window queue

    mutating func enqueue(
        _ content: WindowTransmission.Content,
        in window: DiscoveryWindow,
        now: Instant,
        rng: inout some RandomNumberGenerator
    ) {
        let at = WindowContention.transmitTime(in: window, after: now, rng: &rng)
        // Stable: equal instants keep the order they were queued in.
        let index = windowQueue.firstIndex { $0.at > at } ?? windowQueue.endIndex
        windowQueue.insert(WindowTransmission(at: at, channel: window.channel, content: content), at: index)
    }

    /// Arms (or moves) the channel's timer to its earliest queued frame.
    mutating func armWindowTransmit(on channel: NANChannel, actions: inout [DiscoveryAction]) {
        guard let first = windowQueue.first(where: { $0.channel == channel }) else { return }
        actions.append(.arm(.windowTransmit(channel), at: first.at))
    }

    /// Sends every queued frame on `channel` that is due, if its window is still open.
    mutating func transmitQueued(on channel: NANChannel, now: Instant, actions: inout [DiscoveryAction]) {
        guard openWindows.contains(where: { $0.channel == channel }) else { return }
        while let index = windowQueue.firstIndex(where: { $0.channel == channel && $0.at <= now }) {
            let entry = windowQueue.remove(at: index)
            switch entry.content {
            case .announcement(.publish, let instanceID):
                guard let instance = publishes.first(where: { $0.instanceID == instanceID }) else { continue }
                actions.append(.transmit(request(publishFrame(instance, requestor: nil), on: channel)))
            case .announcement(.subscribe, let instanceID):
                guard let instance = subscribes.first(where: { $0.instanceID == instanceID }) else { continue }
                actions.append(.transmit(request(subscribeFrame(instance), on: channel)))
            case .frame(let queued):
                let request = request(queued.frame, on: channel)
                actions.append(.transmit(request))
                if let token = queued.followUpToken {
                    followUpTokens[request.cookie] = token
                    followUpsInFlight[request.cookie] = (queued.frame, queued.attempt)
                }
            }
        }
        armWindowTransmit(on: channel, actions: &actions)
    }

    mutating func request(_ frame: ManagementFrame, on channel: NANChannel) -> TxRequest {
        var frame = frame
        frame.header.sequenceControl = counter.nextSequenceControl()
        return TxRequest(
            frame: frame.wireBytes,
            channel: channel,
            powerDBm: configuration.transmitPowerDBm,
            cookie: counter.nextCookie()
        )
    }

    /// A3 of a frame not answering anyone: the NAN Network ID in USD, the Cluster ID when
    /// synchronized (nan-wire-reference.md 1.3).
    var defaultAddressThree: MACAddress {
        switch configuration.mode {
        case .unsynchronized: .nanNetworkID
        case .synchronized: clusterID ?? .nanNetworkID
        }
    }

    /// A Publish: multicast to the NAN Network ID, or unicast to the subscriber it answers with
    /// Requestor Instance ID = the subscribe's instance (1.3, 2.4).
    func publishFrame(
        _ instance: PublishInstance,
        requestor: (peer: PeerInstance, addressThree: MACAddress)?
    ) -> ManagementFrame {
        let configuration = instance.configuration
        var attributes: [NANAttribute] = [
            .serviceDescriptor(
                ServiceDescriptorAttribute(
                    serviceID: instance.serviceID,
                    instanceID: instance.instanceID,
                    requestorInstanceID: requestor?.peer.instanceID ?? 0,
                    type: .publish,
                    discoveryRangeLimited: configuration.discoveryRangeLimited,
                    matchingFilter: configuration.transmitMatchingFilter
                )
            ),
            .serviceDescriptorExtension(
                ServiceDescriptorExtensionAttribute(
                    instanceID: instance.instanceID,
                    control: configuration.extensionControl,
                    serviceUpdateIndicator: instance.serviceUpdateIndicator,
                    serviceInfo: configuration.serviceInfo.map { .structured($0) }
                )
            ),
        ]
        if configuration.offersDataPaths { attributes += dataPathAdvertisement?.attributes ?? [] }
        if configuration.extensionControl.contains(.securityRequired), !configuration.dataPathCipherSuites.isEmpty {
            // Security Required comes with the suites, for this instance (hostap nan_de_sdf_attrs_put).
            attributes.append(
                .cipherSuiteInfo(
                    CipherSuiteInfoAttribute(
                        capabilities: CipherSuiteCapabilities(rawValue: 0),
                        cipherSuites: configuration.dataPathCipherSuites.map {
                            CipherSuite(csid: CipherSuiteID($0), instanceID: instance.instanceID)
                        }
                    )
                )
            )
        }
        attributes += configuration.pairing?.attributes ?? []
        attributes += configuration.additionalAttributes
        return sdf(
            to: requestor?.peer.address ?? .nanNetworkID,
            addressThree: requestor?.addressThree ?? defaultAddressThree,
            attributes: attributes
        )
    }

    /// An active Subscribe, multicast (2.4: Requestor Instance ID 0).
    func subscribeFrame(_ instance: SubscribeInstance) -> ManagementFrame {
        let configuration = instance.configuration
        var attributes: [NANAttribute] = [
            .serviceDescriptor(
                ServiceDescriptorAttribute(
                    serviceID: instance.serviceID,
                    instanceID: instance.instanceID,
                    type: .subscribe,
                    discoveryRangeLimited: configuration.discoveryRangeLimited,
                    matchingFilter: configuration.transmitMatchingFilter,
                    serviceResponseFilter: configuration.serviceResponseFilter
                )
            )
        ]
        if let serviceInfo = configuration.serviceInfo {
            attributes.append(
                .serviceDescriptorExtension(
                    ServiceDescriptorExtensionAttribute(
                        instanceID: instance.instanceID,
                        serviceInfo: .structured(serviceInfo)
                    )
                )
            )
        }
        if configuration.seeksDataPaths { attributes += dataPathAdvertisement?.attributes ?? [] }
        attributes += configuration.additionalAttributes
        return sdf(to: .nanNetworkID, addressThree: defaultAddressThree, attributes: attributes)
    }

    func followUpFrame(_ followUp: FollowUpRequest, serviceID: ServiceID) -> ManagementFrame {
        var attributes: [NANAttribute] = [
            .serviceDescriptor(
                ServiceDescriptorAttribute(
                    serviceID: serviceID,
                    instanceID: followUp.localInstanceID,
                    requestorInstanceID: followUp.peerInstanceID,
                    type: .followUp
                )
            )
        ]
        if let serviceInfo = followUp.serviceInfo {
            attributes.append(
                .serviceDescriptorExtension(
                    ServiceDescriptorExtensionAttribute(
                        instanceID: followUp.localInstanceID,
                        serviceInfo: .structured(serviceInfo)
                    )
                )
            )
        }
        if takesPartInDataPaths(instanceID: followUp.localInstanceID) {
            attributes += dataPathAdvertisement?.attributes ?? []
        }
        attributes += followUp.attributes
        return sdf(
            to: followUp.peerAddress,
            addressThree: peerAddressThree[followUp.peerAddress] ?? defaultAddressThree,
            attributes: attributes
        )
    }

    /// Whether the local instance a follow-up comes from is one whose SDFs advertise data paths.
    private func takesPartInDataPaths(instanceID: UInt8) -> Bool {
        if let publish = publishes.first(where: { $0.instanceID == instanceID }) {
            return publish.configuration.offersDataPaths
        }
        return subscribes.first { $0.instanceID == instanceID }?.configuration.seeksDataPaths ?? false
    }

    /// An SDF: Public Action, A2 = own NMI (1.1, 1.3). The sequence number is set when it is sent.
    private func sdf(to receiver: MACAddress, addressThree: MACAddress, attributes: [NANAttribute]) -> ManagementFrame {
        ManagementFrame(
            header: ManagementHeader(
                frameControl: .management(.action),
                address1: receiver,
                address2: configuration.address,
                address3: addressThree
            ),
            body: .serviceDiscovery(ServiceDiscoveryFrame(category: .publicAction, attributes: attributes))
        )
    }
}

/// A reply or follow-up that could not go out at once, with the follow-up token to report
/// its TX status under.
struct QueuedFrame: Hashable, Sendable {
    var frame: ManagementFrame
    var followUpToken: UInt32?
    /// Which transmission of the frame this will be (follow-ups are retried when unacknowledged).
    var attempt = 1
}

/// Synchronized mode: a frame waiting for its instant inside a discovery window (see
/// ``WindowContention``).
struct WindowTransmission: Hashable, Sendable {
    enum Content: Hashable, Sendable {
        /// An unsolicited Publish or active Subscribe, built when it goes out so that it
        /// carries the instance's latest state, and dropped if the instance has ended.
        case announcement(ServiceRole, instanceID: UInt8)
        case frame(QueuedFrame)
    }

    var at: Instant
    var channel: NANChannel
    var content: Content
}
