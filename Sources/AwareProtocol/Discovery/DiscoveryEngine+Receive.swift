import AwareCore
import AwareWire

extension DiscoveryEngine {
    /// Takes the SDFs addressed to the NAN Network ID (or any group address) or to this station;
    /// each SDA in the frame is handled on its own, with the SDEA of the same instance ID (2.5).
    mutating func receive(_ received: ReceivedFrame, actions: inout [DiscoveryAction]) {
        guard case .serviceDiscovery(let sdf) = received.frame.body else { return }
        let header = received.frame.header
        guard header.address2 != address else { return }
        let toThisStation = header.address1 == address
        guard toThisStation || header.address1.isGroup else { return }
        peerAddressThree[header.address2] = header.address3
        let context = ReceivedSDF(received: received, attributes: sdf.attributes)
        for case .serviceDescriptor(let descriptor) in sdf.attributes {
            switch descriptor.type {
            case .publish:
                receivePublish(descriptor, context: context, unicast: toThisStation, actions: &actions)
            case .subscribe:
                receiveSubscribe(descriptor, context: context, actions: &actions)
            case .followUp where toThisStation:
                receiveFollowUp(descriptor, context: context, actions: &actions)
            case .followUp, .reserved:
                break
            }
        }
    }

    private func inRange(_ context: ReceivedSDF, limited: Bool) -> Bool {
        !limited || context.rssiDBm >= configuration.rangeThresholdDBm
    }

    // MARK: Subscriber side

    /// A passive or active subscriber reports an unsolicited Publish whose transmit filter its
    /// receive filter matches (2.4); a solicited Publish is the publisher's answer to this
    /// station's Subscribe, already matched there against the Subscribe's filter and SRF, so only
    /// range applies. A publisher is reported once, and again when its Service Update Indicator
    /// changes.
    private mutating func receivePublish(
        _ descriptor: ServiceDescriptorAttribute,
        context: ReceivedSDF,
        unicast: Bool,
        actions: inout [DiscoveryAction]
    ) {
        let solicited = unicast && descriptor.requestorInstanceID != 0
        let extensionAttribute = context.extensionAttribute(for: descriptor.instanceID)
        let peer = PeerInstance(address: context.transmitter, instanceID: descriptor.instanceID)
        for index in subscribes.indices where subscribes[index].serviceID == descriptor.serviceID {
            let subscribe = subscribes[index]
            if solicited && descriptor.requestorInstanceID != subscribe.instanceID { continue }
            let outcome: DiscoveryMatchOutcome
            if !inRange(
                context,
                limited: subscribe.configuration.discoveryRangeLimited || descriptor.discoveryRangeLimited
            ) {
                outcome = .outOfRange
            } else if let srf = descriptor.serviceResponseFilter, !srf.matches(address) {
                outcome = .excludedByServiceResponseFilter
            } else if !solicited,
                !MatchingFilter.matches(
                    subscriber: subscribe.configuration.receiveMatchingFilter,
                    publisher: descriptor.matchingFilter
                )
            {
                outcome = .matchingFilterMismatch
            } else {
                outcome = .matched
            }
            let indicator = extensionAttribute?.serviceUpdateIndicator
            if outcome == .matched {
                if let reported = subscribe.reported[peer], reported == indicator { continue }
                subscribes[index].reported[peer] = .some(indicator)
            } else {
                let rejection = RejectedPublish(peer: peer, outcome: outcome)
                guard configuration.reportsRejectedPublishes, !subscribe.rejected.contains(rejection) else { continue }
                subscribes[index].rejected.insert(rejection)
            }
            let result = DiscoveryResult(
                subscribeInstanceID: subscribe.instanceID,
                serviceName: subscribe.configuration.serviceName,
                serviceID: descriptor.serviceID,
                publisherAddress: context.transmitter,
                publishInstanceID: descriptor.instanceID,
                addressThree: context.received.frame.header.address3,
                solicited: solicited,
                rssiDBm: context.rssiDBm,
                channel: context.received.info.channel,
                timestamp: context.received.info.timestamp,
                serviceUpdateIndicator: indicator,
                serviceSpecificInfo: extensionAttribute?.serviceInfo?.serviceSpecificInfo,
                descriptorServiceInfo: descriptor.serviceInfo,
                matchingFilter: descriptor.matchingFilter,
                deviceCapabilityExtension: context.deviceCapabilityExtension,
                bootstrappingMethods: context.advertisedBootstrappingMethods,
                identityResolution: context.identityResolution,
                attributes: context.attributes,
                outcome: outcome
            )
            actions.append(.notify(.discoveryResult(result)))
        }
    }

    // MARK: Publisher side

    /// A publish that answers subscribes replies, unicast, to an active Subscribe that is in
    /// range, whose SRF admits this station and whose transmit filter matches the publish's
    /// receive filter (2.4). Unsolicited-only publishes never reply (hostap test_nan.py: no
    /// NAN-REPLIED on an unsolicited publish). Every Subscribe is answered — hostap's USD
    /// pauseState (1.5) is not modelled — but `replied` is told once per subscriber instance.
    private mutating func receiveSubscribe(
        _ descriptor: ServiceDescriptorAttribute,
        context: ReceivedSDF,
        actions: inout [DiscoveryAction]
    ) {
        let peer = PeerInstance(address: context.transmitter, instanceID: descriptor.instanceID)
        for index in publishes.indices where publishes[index].serviceID == descriptor.serviceID {
            let publish = publishes[index]
            guard publish.configuration.solicitation.answersSubscribes else { continue }
            if descriptor.requestorInstanceID != 0 && descriptor.requestorInstanceID != publish.instanceID { continue }
            guard
                inRange(
                    context,
                    limited: publish.configuration.discoveryRangeLimited || descriptor.discoveryRangeLimited
                )
            else { continue }
            if let srf = descriptor.serviceResponseFilter, !srf.matches(address) { continue }
            guard
                MatchingFilter.matches(
                    subscriber: descriptor.matchingFilter,
                    publisher: publish.configuration.receiveMatchingFilter
                )
            else { continue }
            let reply = publishFrame(publish, requestor: (peer, context.received.frame.header.address3))
            send(reply, actions: &actions)
            if !publish.answered.contains(peer) {
                publishes[index].answered.insert(peer)
                let info = context.extensionAttribute(for: descriptor.instanceID)?.serviceInfo?.serviceSpecificInfo
                actions.append(
                    .notify(
                        .replied(
                            SubscriberReply(
                                publishInstanceID: publish.instanceID,
                                subscriberAddress: context.transmitter,
                                subscribeInstanceID: descriptor.instanceID,
                                rssiDBm: context.rssiDBm,
                                serviceSpecificInfo: info
                            )
                        )
                    )
                )
            }
        }
    }

    // MARK: Follow-ups

    /// A Follow-up names the local instance in its Requestor Instance ID; the Service ID must be
    /// that instance's too.
    private func receiveFollowUp(
        _ descriptor: ServiceDescriptorAttribute,
        context: ReceivedSDF,
        actions: inout [DiscoveryAction]
    ) {
        let local = descriptor.requestorInstanceID
        let known =
            publishes.contains { $0.instanceID == local && $0.serviceID == descriptor.serviceID }
            || subscribes.contains { $0.instanceID == local && $0.serviceID == descriptor.serviceID }
        guard known else { return }
        let message = FollowUpMessage(
            localInstanceID: local,
            peerAddress: context.transmitter,
            peerInstanceID: descriptor.instanceID,
            serviceSpecificInfo: context.extensionAttribute(for: descriptor.instanceID)?.serviceInfo?
                .serviceSpecificInfo,
            descriptorServiceInfo: descriptor.serviceInfo,
            attributes: context.attributes,
            rssiDBm: context.rssiDBm,
            timestamp: context.received.info.timestamp
        )
        actions.append(.notify(.followUpReceived(message)))
    }
}

/// What one received SDF offers every SDA in it.
struct ReceivedSDF {
    let received: ReceivedFrame
    let attributes: [NANAttribute]

    var transmitter: MACAddress { received.transmitter }
    var rssiDBm: Int { received.info.rssiDBm }

    func extensionAttribute(for instanceID: UInt8) -> ServiceDescriptorExtensionAttribute? {
        for case .serviceDescriptorExtension(let sdea) in attributes where sdea.instanceID == instanceID {
            return sdea
        }
        return nil
    }

    var deviceCapabilityExtension: DeviceCapabilityExtensionAttribute? {
        for case .deviceCapabilityExtension(let dcea) in attributes { return dcea }
        return nil
    }

    var advertisedBootstrappingMethods: BootstrappingMethods? {
        for case .pairingBootstrapping(let npba) in attributes where npba.type == .advertise {
            return npba.methods
        }
        return nil
    }

    var identityResolution: IdentityResolutionAttribute? {
        for case .identityResolution(let nira) in attributes { return nira }
        return nil
    }
}
