import AwareCore
import AwareCrypto
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire

/// The reverse role (profile `subscriptions`, docs/reference/profile-reference.md): the phone's
/// app publishes, as DevicePairingView does, and the accessory subscribes. The publisher shows
/// the PIN and the subscriber enters it (apple-peer-model.md 3), so here the accessory is the
/// bootstrapping requester with PIN keypad, the PASN initiator and the first to send its NIK
/// (nan-wire-reference.md 3.1-3.6), and then the initiator of the data path, naming the
/// publisher's publish instance (4.1).
///
/// One publisher at a time: each subscription listens passively (it sends nothing until it
/// hears a publisher), and a publisher found is paired with, or verified where its NIRA
/// resolves to a kept pairing (3.7), then given a data path when the subscription asks for one.
/// A setup that fails is tried again after ``retryAfter``, at most ``maximumAttempts`` times in a
/// row until the publisher is found again, so a person who typed a wrong PIN gets a new
/// bootstrapping, not a loop. A verification the phone refuses (it forgot the accessory) is
/// followed at once by a pairing with a PIN.
final class AccessorySubscriber {
    let subscriptions: [SubscriptionProfile]
    let faults: Set<AccessoryFault>
    unowned let device: NANDevice
    let pairing: AccessoryPairing
    let dataService: AccessoryDataService?
    var emit: (String, [(String, JSONValue)], String) -> Void
    /// Each subscribe instance and the subscription it serves.
    private var instances: [UInt8: SubscriptionProfile] = [:]
    /// The publisher being paired with or verified, with what found it.
    private var engaged: (result: DiscoveryResult, subscription: SubscriptionProfile, verification: Bool)?
    /// Publishers served this boot (paired or verified, and given their data path).
    private var served: Set<MACAddress> = []
    /// The latest publish of each publisher found, with the subscription it matched: what a
    /// retry pairs from (a passive subscribe reports a publisher once, not at every announcement).
    private var found: [MACAddress: (result: DiscoveryResult, subscription: SubscriptionProfile)] = [:]
    /// Failed pairing setups in a row per publisher, and the retry waiting for each.
    private var failures: [MACAddress: Int] = [:]
    private var retries: [MACAddress: ScheduledWork] = [:]
    /// Publishers already reported as offering no pairing the accessory can do.
    private var unusable: Set<MACAddress> = []
    /// Publishers whose NIRA resolved to a kept pairing they then refused to verify: the phone
    /// forgot the accessory (its app reinstalled, the pairing removed in Settings). The kept
    /// record is stale; the next try pairs afresh with a PIN.
    private var forgotten: Set<MACAddress> = []

    /// How long a publisher whose pairing failed is left alone before the next try.
    static let retryAfter: Interval = .seconds(10)
    /// Failed setups in a row after which a publisher is tried again only when it is found again.
    static let maximumAttempts = 3

    init(
        subscriptions: [SubscriptionProfile],
        faults: Set<AccessoryFault>,
        device: NANDevice,
        pairing: AccessoryPairing,
        dataService: AccessoryDataService?,
        emit: @escaping (String, [(String, JSONValue)], String) -> Void
    ) {
        self.subscriptions = subscriptions
        self.faults = faults
        self.device = device
        self.pairing = pairing
        self.dataService = dataService
        self.emit = emit
    }

    /// Starts a passive subscribe for each subscription.
    func start() {
        for subscription in subscriptions {
            device.perform(
                .subscribe(
                    SubscribeConfiguration(
                        serviceName: subscription.name,
                        mode: .passive,
                        seeksDataPaths: subscription.datapath
                    )
                )
            )
        }
    }

    func subscribeStarted(instanceID: UInt8, serviceName: String) {
        guard let subscription = subscriptions.first(where: { $0.name == serviceName }) else { return }
        instances[instanceID] = subscription
        emit(
            "subscribe_started",
            [("service", .string(serviceName)), ("instanceID", .unsigned(UInt64(instanceID)))],
            "subscribing to \(serviceName) (instance \(instanceID), passive)"
        )
    }

    /// A publish one of our subscriptions matched: pair with its publisher, or verify the
    /// pairing its NIRA resolves to, unless one attempt is under way already.
    func discovered(_ result: DiscoveryResult) {
        guard result.matched, let subscription = instances[result.subscribeInstanceID] else { return }
        let publisher = result.publisherAddress
        found[publisher] = (result, subscription)
        failures[publisher] = nil
        engage(publisher)
    }

    /// Cancels the retries waiting (the accessory stops).
    func stop() {
        for work in retries.values { device.scheduler.cancel(work) }
        retries = [:]
    }

    private func engage(_ publisher: MACAddress) {
        guard let (result, subscription) = found[publisher], engaged == nil, !pairing.manager.awaitingPIN,
            !served.contains(publisher), retries[publisher] == nil
        else { return }
        let target = PairingManager.PairingTarget(
            accessory: publisher,
            localInstanceID: result.subscribeInstanceID,
            peerInstanceID: result.publishInstanceID,
            address3: result.addressThree
        )
        let record =
            forgotten.contains(publisher)
            ? nil : result.identityResolution.flatMap { pairing.manager.resolve($0, publisher: publisher) }
        if let record {
            engaged = (result, subscription, true)
            announce(result, paired: true)
            pairing.manager.verify(with: target, record: record, advertisesNIRA: true, options: initiatorOptions)
            return
        }
        // The publisher shows the PIN; the subscriber asks for the complement, PIN keypad (3.2).
        guard result.bootstrappingMethods?.contains(.pinCodeDisplay) == true else {
            if unusable.insert(publisher).inserted {
                emit(
                    "publisher_ignored",
                    [("peer", .string(publisher.description)), ("reason", .string("no-pin-display"))],
                    "found \(result.serviceName) published by \(publisher), which offers no PIN display to pair with"
                )
            }
            return
        }
        engaged = (result, subscription, false)
        announce(result, paired: false)
        pairing.manager.pair(with: target, options: initiatorOptions)
    }

    private func announce(_ result: DiscoveryResult, paired: Bool) {
        let publisher = result.publisherAddress
        emit(
            "publisher_found",
            [
                ("peer", .string(publisher.description)), ("service", .string(result.serviceName)),
                ("publishID", .unsigned(UInt64(result.publishInstanceID))), ("paired", .bool(paired)),
            ],
            "found \(result.serviceName) published by \(publisher)"
                + (paired ? ", a paired device: verifying, no PIN" : ": asking to pair (PIN keypad)")
        )
    }

    /// How the accessory pairs as the initiator: PIN keypad, its profile's preferred suite and
    /// key caching, and the NIK in hostap's layout with the Key Lifetime KDE.
    private var initiatorOptions: PairingManager.InitiatorOptions {
        let settings = pairing.settings
        return PairingManager.InitiatorOptions(
            method: faults.contains(.reverseRequestsDisplay) ? .pinCodeDisplay : .pinCodeKeypad,
            suite: settings.cipherSuites.first.flatMap { NANSecurityCipherSuite(rawValue: $0.csid) } ?? .ncsPKPASN128,
            cachesKeys: settings.cache.npk && settings.cache.nik,
            deviations: faults.contains(.reverseNoNIK) ? [.withholdsNIK] : [],
            nikForm: .zeroMIC,
            nikLifetimeSeconds: NIKDelivery.lifetimeOnWire(seconds: settings.cache.nikLifetimeSeconds)
        )
    }

    /// The attempt with the engaged publisher ended: on success its data path is opened.
    func attemptEnded(_ result: PairingAttemptResult) {
        guard let (found, subscription, verification) = engaged else { return }
        engaged = nil
        let publisher = found.publisherAddress
        let succeeded: Bool
        switch result {
        case .paired(let pasn, _, let nikReceived):
            succeeded = true
            emit(
                "paired",
                [
                    ("peer", .string(publisher.description)), ("cipherSuite", .unsigned(UInt64(pasn.suite.csid))),
                    ("keyCaching", .bool(nikReceived)), ("role", .string("initiator")),
                ],
                "paired with \(publisher), which published \(found.serviceName)"
            )
        case .reconnected:
            succeeded = true
            emit(
                "reconnected",
                [("peer", .string(publisher.description)), ("role", .string("initiator"))],
                "verified the pairing with \(publisher) with the cached keys, no PIN"
            )
        case .noCachedKeys, .notStored, .noPIN, .bootstrapFailed, .pasnFailed:
            succeeded = false
            let next =
                verification
                ? "pairing afresh with a PIN"
                : "trying again in \(Int(Self.retryAfter.seconds)) s (at most \(Self.maximumAttempts) tries in a row)"
            emit(
                verification ? "verification_failed" : "pairing_failed",
                [
                    ("peer", .string(publisher.description)), ("role", .string("initiator")),
                    ("reason", .string(Self.reason(of: result))),
                ],
                "\(verification ? "verification" : "pairing") with \(publisher) failed "
                    + "(\(Self.reason(of: result))); \(next)"
            )
        }
        if succeeded {
            served.insert(publisher)
            failures[publisher] = nil
        } else if verification {
            // Refused or failed with the cached keys: the phone forgot us; pair afresh with a PIN.
            forgotten.insert(publisher)
            _ = device.scheduler.schedule(at: device.now) { [weak self] in self?.engage(publisher) }
        } else {
            let failed = (failures[publisher] ?? 0) + 1
            failures[publisher] = failed
            if failed < Self.maximumAttempts {
                retries[publisher] = device.scheduler.schedule(at: device.now + Self.retryAfter) { [weak self] in
                    self?.retries[publisher] = nil
                    self?.engage(publisher)
                }
            }
        }
        if subscription.datapath, succeeded || faults.contains(.reverseDataPathUnpaired) {
            dataService?.openDataPath(
                to: publisher,
                publishID: faults.contains(.reverseNDPOwnInstance)
                    ? found.subscribeInstanceID : found.publishInstanceID,
                serviceName: found.serviceName
            )
        }
        // Publishers found while this one was engaged get their turn, in address order (a seed
        // replays the same run).
        let waiting = self.found.keys.filter { $0 != publisher }.sorted { $0.description < $1.description }
        for other in waiting { engage(other) }
    }

    private static func reason(of result: PairingAttemptResult) -> String {
        switch result {
        case .paired, .reconnected: "none"
        case .noCachedKeys: "no-cached-keys"
        case .notStored: "store-failed"
        case .noPIN: "no-pin"
        case .bootstrapFailed(.rejected(let code)): "bootstrap-rejected-\(code)"
        case .bootstrapFailed(.invalidMethod): "bootstrap-invalid-method"
        case .bootstrapFailed(.timeout): "bootstrap-timeout"
        case .bootstrapFailed(.methodMismatch): "bootstrap-method-mismatch"
        case .bootstrapFailed(.tooManyComebacks): "bootstrap-too-many-comebacks"
        case .bootstrapFailed(.aborted): "bootstrap-aborted"
        case .pasnFailed(let failure): "pasn: \(failure.reason)"
        }
    }
}
