import AwareWire

extension DiscoveryEngine {
    /// USD: send now and again every announcement period. Synchronized: send in the window open
    /// now, if any; every later window announces on its own.
    mutating func announcePublish(at index: Int, now: Instant, actions: inout [DiscoveryAction]) {
        let frame = publishFrame(publishes[index], requestor: nil)
        let next = announce(frame, now: now, actions: &actions)
        publishes[index].nextAnnouncement = next
        if let next { actions.append(.arm(.announce(instanceID: publishes[index].instanceID), at: next)) }
    }

    mutating func announceSubscribe(at index: Int, now: Instant, actions: inout [DiscoveryAction]) {
        let frame = subscribeFrame(subscribes[index])
        let next = announce(frame, now: now, actions: &actions)
        subscribes[index].nextAnnouncement = next
        if let next { actions.append(.arm(.announce(instanceID: subscribes[index].instanceID), at: next)) }
    }

    /// Returns when the next announcement is due (USD only).
    private mutating func announce(_ frame: ManagementFrame, now: Instant, actions: inout [DiscoveryAction]) -> Instant?
    {
        switch configuration.mode {
        case .unsynchronized(let channel):
            actions.append(.transmit(request(frame, on: channel)))
            return now + configuration.announcementPeriod
        case .synchronized:
            if let window = openWindows.first {
                actions.append(.transmit(request(frame, on: window.channel)))
            }
            return nil
        }
    }

    /// Sends a frame that is not a periodic announcement (a solicited reply, a follow-up): at
    /// once in USD or inside an open window, else at the start of the next window. Returns the
    /// TX-status cookie when the frame left now.
    @discardableResult
    mutating func send(_ frame: ManagementFrame, actions: inout [DiscoveryAction]) -> UInt64? {
        let channel: NANChannel
        switch configuration.mode {
        case .unsynchronized(let usdChannel):
            channel = usdChannel
        case .synchronized:
            guard let window = openWindows.first else {
                pending.append(frame)
                return nil
            }
            channel = window.channel
        }
        let request = request(frame, on: channel)
        actions.append(.transmit(request))
        return request.cookie
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
        attributes += followUp.attributes
        return sdf(
            to: followUp.peerAddress,
            addressThree: peerAddressThree[followUp.peerAddress] ?? defaultAddressThree,
            attributes: attributes
        )
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
