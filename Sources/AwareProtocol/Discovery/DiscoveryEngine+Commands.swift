import AwareCore
import AwareWire

extension DiscoveryEngine {
    mutating func perform(
        _ command: DiscoveryCommand,
        now: Instant,
        rng: inout some RandomNumberGenerator,
        actions: inout [DiscoveryAction]
    ) {
        do throws(DiscoveryCommandError) {
            switch command {
            case .publish(let configuration):
                try startPublish(configuration, now: now, rng: &rng, actions: &actions)
            case .subscribe(let configuration):
                try startSubscribe(configuration, now: now, rng: &rng, actions: &actions)
            case .updatePublish(let instanceID, let update):
                try applyUpdate(update, to: instanceID, now: now, rng: &rng, actions: &actions)
            case .cancelPublish(let instanceID):
                guard let index = publishes.firstIndex(where: { $0.instanceID == instanceID }) else {
                    throw .unknownInstance(instanceID)
                }
                terminatePublish(at: index, reason: .userRequested, actions: &actions)
            case .cancelSubscribe(let instanceID):
                guard let index = subscribes.firstIndex(where: { $0.instanceID == instanceID }) else {
                    throw .unknownInstance(instanceID)
                }
                terminateSubscribe(at: index, reason: .userRequested, actions: &actions)
            case .transmitFollowUp(let followUp):
                try sendFollowUp(followUp, now: now, actions: &actions)
            }
        } catch {
            actions.append(.notify(.commandRejected(error)))
        }
    }

    private mutating func startPublish(
        _ configuration: PublishConfiguration,
        now: Instant,
        rng: inout some RandomNumberGenerator,
        actions: inout [DiscoveryAction]
    ) throws(DiscoveryCommandError) {
        let index = try start(configuration, in: \.publishes, now: now, actions: &actions)
        if configuration.solicitation.sendsUnsolicited {
            startAnnouncing(.publish, at: index, now: now, rng: &rng, actions: &actions)
        }
    }

    private mutating func startSubscribe(
        _ configuration: SubscribeConfiguration,
        now: Instant,
        rng: inout some RandomNumberGenerator,
        actions: inout [DiscoveryAction]
    ) throws(DiscoveryCommandError) {
        let index = try start(configuration, in: \.subscribes, now: now, actions: &actions)
        if configuration.mode == .active {
            startAnnouncing(.subscribe, at: index, now: now, rng: &rng, actions: &actions)
        }
    }

    /// Validates `configuration`, starts an instance for it and keeps `instances` in instance
    /// ID order; returns the new instance's index.
    private mutating func start<Instance: ServiceInstance>(
        _ configuration: Instance.Configuration,
        in instances: WritableKeyPath<Self, [Instance]>,
        now: Instant,
        actions: inout [DiscoveryAction]
    ) throws(DiscoveryCommandError) -> Int {
        try Self.validate(filters: [configuration.transmitMatchingFilter, configuration.receiveMatchingFilter])
        try Self.validate(serviceInfo: configuration.serviceInfo)
        let instanceID = try allocateInstanceID(requested: configuration.instanceID)
        var instance = Instance(instanceID: instanceID, configuration: configuration)
        startListening(actions: &actions)
        let started: DiscoveryNotification =
            switch Instance.role {
            case .publish: .publishStarted(instanceID: instanceID, serviceName: configuration.serviceName)
            case .subscribe: .subscribeStarted(instanceID: instanceID, serviceName: configuration.serviceName)
            }
        actions.append(.notify(started))
        if let ttl = configuration.timeToLive {
            instance.expiry = now + ttl
            actions.append(.arm(.timeToLive(instanceID: instanceID), at: now + ttl))
        }
        let index =
            self[keyPath: instances].firstIndex { $0.instanceID > instanceID } ?? self[keyPath: instances].endIndex
        self[keyPath: instances].insert(instance, at: index)
        return index
    }

    private mutating func applyUpdate(
        _ update: PublishUpdate,
        to instanceID: UInt8,
        now: Instant,
        rng: inout some RandomNumberGenerator,
        actions: inout [DiscoveryAction]
    ) throws(DiscoveryCommandError) {
        guard let index = publishIndex(instanceID) else { throw .unknownInstance(instanceID) }
        try Self.validate(filters: [update.transmitMatchingFilter])
        try Self.validate(serviceInfo: update.serviceInfo)
        var instance = publishes[index]
        if let serviceInfo = update.serviceInfo { instance.configuration.serviceInfo = serviceInfo }
        if let pairing = update.pairing { instance.configuration.pairing = pairing }
        if let attributes = update.additionalAttributes { instance.configuration.additionalAttributes = attributes }
        if let filter = update.transmitMatchingFilter { instance.configuration.transmitMatchingFilter = filter }
        instance.serviceUpdateIndicator &+= 1
        publishes[index] = instance
        actions.append(
            .notify(.publishUpdated(instanceID: instanceID, serviceUpdateIndicator: instance.serviceUpdateIndicator))
        )
        if instance.configuration.solicitation.sendsUnsolicited {
            announcePublish(at: index, now: now, rng: &rng, actions: &actions)
        }
    }

    private mutating func sendFollowUp(
        _ followUp: FollowUpRequest,
        now: Instant,
        actions: inout [DiscoveryAction]
    ) throws(DiscoveryCommandError) {
        try Self.validate(serviceInfo: followUp.serviceInfo)
        let serviceID: ServiceID
        if let publish = publishes.first(where: { $0.instanceID == followUp.localInstanceID }) {
            serviceID = publish.serviceID
        } else if let subscribe = subscribes.first(where: { $0.instanceID == followUp.localInstanceID }) {
            serviceID = subscribe.serviceID
        } else {
            throw .followUpFromUnknownInstance(followUp.localInstanceID)
        }
        let frame = followUpFrame(followUp, serviceID: serviceID)
        send(frame, followUpToken: followUp.token, actions: &actions)
    }

    /// The requested ID if free, else the lowest free one; publish and subscribe share the space
    /// as hostap's service handles do.
    private func allocateInstanceID(requested: UInt8?) throws(DiscoveryCommandError) -> UInt8 {
        let used = Set(publishes.map(\.instanceID) + subscribes.map(\.instanceID))
        if let requested {
            guard requested != 0 else { throw .instanceIDZero }
            guard !used.contains(requested) else { throw .instanceIDInUse(requested) }
            return requested
        }
        guard let free = (UInt8(1)...UInt8(255)).first(where: { !used.contains($0) }) else {
            throw .noFreeInstanceID
        }
        return free
    }

    private static func validate(filters: [MatchingFilter?]) throws(DiscoveryCommandError) {
        for case let filter? in filters where !filter.fitsWireLimit {
            throw .matchingFilterTooLong(octets: filter.wireLength)
        }
    }

    private static func validate(serviceInfo: ServiceSpecificInfo?) throws(DiscoveryCommandError) {
        guard let serviceInfo else { return }
        // OUI (3) + protocol type (1) + info under the 2-octet Service Info Length; the SDEA's
        // own 2-octet length also covers instance ID, control and SUI (2.5).
        let octets = 4 + serviceInfo.info.count
        guard octets + 6 <= 0xFFFF else { throw .serviceInfoTooLong(octets: octets) }
    }

    func publishIndex(_ instanceID: UInt8) -> Int? {
        publishes.firstIndex { $0.instanceID == instanceID }
    }

    mutating func startListening(actions: inout [DiscoveryAction]) {
        guard case .unsynchronized(let channel) = configuration.mode, !listening else { return }
        listening = true
        actions.append(.notify(.listen([channel])))
    }
}
