import AwareCore
import AwareCrypto
import AwareProtocol
import AwareRadio
import AwareWire

/// NAN pairing for one device, in both roles (nan-wire-reference.md 3; apple-peer-model.md
/// 3-5): bootstrapping and PASN per peer, the NM-TK installed at the edge, the NIK exchange, the
/// pairing records and their store, and the NIRA that lets paired peers recognise us. The
/// accessory's firmware pairs as a responder (``PairingManager+Responder.swift``), the runner's
/// phone as an initiator (``PairingManager+Initiator.swift``); policy (who may pair, the PIN,
/// attempt limits, logging) is the ``PairingDelegate``'s.
///
/// The machines (``BootstrapResponder``, ``BootstrapRequester``, ``PASNResponder``,
/// ``PASNInitiator``) stay pure; each runs in a ``MachineDriver``. The device hands the
/// manager every PASN Authentication frame addressed to it and every Follow-up it receives.
public final class PairingManager {
    public private(set) var configuration: Configuration
    public unowned let device: NANDevice
    public let store: PairingStore?
    public weak var delegate: (any PairingDelegate)?
    /// The device's pairing randomness: NIK, NIRA and NPKID nonces, SAE scalars, and whatever
    /// the delegate draws from it (a seeded PIN).
    public let random: DeviceRandom
    /// Our NIK (nan-wire-reference.md 3.6): the store's, or drawn at the first start.
    public let ownNIK: [UInt8]
    /// The peers we are paired with, as the store keeps them (in memory without a store).
    public internal(set) var records: [PairingRecord]
    /// Why the store could not be read when the manager started (it then starts unpaired).
    public let storeProblem: DeviceStateError?
    /// The ND-PMK and cipher suite of each peer's latest pairing or verification, in memory:
    /// what secures data paths with the peer (3.5, 4.2). After a restart the peer verifies again
    /// before it opens one.
    public internal(set) var dataPathKeys: [MACAddress: DataPathKey] = [:]
    /// This boot's NIRA (``advertiseIdentity(nonce:)``), when we cache keys.
    public private(set) var identityResolution: IdentityResolutionAttribute?

    // Responder state (PairingManager+Responder.swift).
    var bootstrapResponder: MachineDriver<BootstrapResponder>?
    var responders: [MACAddress: ResponderRun] = [:]
    /// The peer whose bootstrapping must outlive the attempt being ended now
    /// (``endAbandonedPairing(with:)``): set only while that attempt fails.
    var keepsBootstrap: MACAddress?
    /// Completed setups, per peer, until the NIK exchange is done.
    var sessions: [MACAddress: PASNResult] = [:]
    /// Digests of PASN frames 1 and 3 already acted on (replay protection).
    var seenFrames: [[UInt8]] = []
    /// The publish instance of the latest Follow-up to us: the instance our NIK speaks for.
    var localInstanceID: UInt8 = 1

    // Initiator state (PairingManager+Initiator.swift).
    var attempt: Attempt?
    var bootstrapRequester: MachineDriver<BootstrapRequester>?
    var initiator: MachineDriver<PASNInitiator>?
    /// The NIK wait after a setup (``Attempt/nikWait``), and the PASN frames handed to the device.
    var nikWait: ScheduledWork?
    var transmissions = 0
    /// The NIK follow-up of a completed setup, until frame 3 is delivered.
    var nikAfterFrame: (serial: Int, request: FollowUpRequest)?
    /// PASN frames 1 and 3 this device sent as initiator, newest last (replay tests re-send them).
    public internal(set) var sentPASNFrames: [TxRequest] = []
    /// How many times frame 1 went out in the current attempt.
    public internal(set) var frame1Transmissions = 0
    /// NIK follow-ups received as initiator.
    public internal(set) var nikMessagesReceived = 0
    /// The latest of them, whole: what a phone needs beside the NIK travels in it too (the
    /// NIRA, the service's port and instance name; nan-wire-reference.md 3.9).
    public internal(set) var lastNIKFollowUp: FollowUpMessage?

    /// The ND-PMK and cipher suite a pairing leaves for the peer's data paths.
    public struct DataPathKey: Hashable, Sendable {
        public var ndPMK: [UInt8]
        public var suite: NANSecurityCipherSuite
    }

    /// Starts pairing on `device`, which from now on hands the manager its PASN frames. `nik`,
    /// when given, is our NIK unless the store already has one; otherwise one is drawn from
    /// `random` (always drawn, so the draws that follow do not depend on the store).
    public init(
        device: NANDevice,
        configuration: Configuration,
        store: PairingStore?,
        random: DeviceRandom,
        nik given: [UInt8]? = nil
    ) {
        self.device = device
        self.configuration = configuration
        self.store = store
        self.random = random
        let drawn = (0..<PairingRecord.nikLength).map { _ in UInt8.random(in: 0...255, using: &random.generator) }
        var nik = given ?? drawn
        var loaded: [PairingRecord] = []
        var problem: DeviceStateError?
        if let store {
            do throws(DeviceStateError) {
                nik = try store.ownNIK(creatingWith: { nik })
                loaded = try store.records
            } catch {
                problem = error
            }
        }
        ownNIK = nik
        records = configuration.deviations.contains(.forgetsPairings) ? [] : loaded
        storeProblem = problem
        device.pairing = self
    }

    var address: MACAddress { device.configuration.address }
    var now: Instant { device.now }
    /// Whether this device keeps NPK and NIK (its DCEA says so, 3.6).
    public var cachesKeys: Bool { configuration.cachesKeys }

    /// Draws this boot's NIRA nonce and advertises the NIRA over our NIK and NMI (3.3, 3.7),
    /// when we cache keys. A fixed `nonce` (a fault) draws nothing.
    public func advertiseIdentity(nonce fixed: [UInt8]? = nil) {
        let nonce = fixed ?? (0..<8).map { _ in UInt8.random(in: 0...255, using: &random.generator) }
        guard cachesKeys else { return }
        // A stale tag is computed over an NMI the accessory no longer uses.
        let nmi =
            configuration.deviations.contains(.staleNIRATag) ? MACAddress(0x02, 0, 0, 0, 0, 0x5A) : address
        let tag = (try? NIRATag.compute(nik: ownNIK, nmi: nmi.octets, nonce: nonce)) ?? []
        identityResolution = IdentityResolutionAttribute(nonce: nonce, tag: tag)
    }

    /// From now on the device also answers pairing, offering `methods`: a phone that publishes
    /// (the reverse role, apple-peer-model.md 3) is the bootstrapping and PASN responder. The
    /// comeback interval is hostap's default (1024 TU, nan-wire-reference.md 3.2); both NCS-PK-PASN
    /// suites are taken, the initiator's choice first.
    public func answerPairing(
        offering methods: BootstrappingMethods,
        cipherSuites: [NANSecurityCipherSuite] = [.ncsPKPASN128, .ncsPKPASN256],
        comebackAfterTU: UInt16 = 1024
    ) {
        configuration.responds = true
        configuration.cipherSuites = cipherSuites
        configuration.offeredMethods = methods
        configuration.comebackAfterTU = comebackAfterTU
        bootstrapResponder?.stop()
        bootstrapResponder = nil
    }

    /// Stops every machine's timers (the device leaves the air).
    public func stop() {
        bootstrapResponder?.stop()
        for run in responders.values { run.driver.stop() }
        responders.removeAll()
        endAttemptTimers()
    }

    /// A Follow-up to one of our services or subscriptions: bootstrapping, or a peer's NIK.
    func followUpReceived(_ message: FollowUpMessage) {
        if let attempt, message.peerAddress == attempt.accessory {
            initiatorFollowUpReceived(message)
            return
        }
        if configuration.responds { responderFollowUpReceived(message) }
    }

    /// A PASN Authentication frame addressed to this device (the device routes them here).
    func pasnFrameReceived(_ frame: ReceivedFrame) {
        if let attempt, frame.transmitter == attempt.accessory, initiator != nil {
            initiatorFrameReceived(frame)
            return
        }
        if configuration.responds { responderFrameReceived(frame) }
    }

    /// Takes the pairing records `other` holds in memory: the same device came back under a new
    /// NMI (a phone that randomizes its address between connections) and keeps its pairings. A
    /// manager with a store keeps its own (the store is the device's memory).
    public func carryOver(from other: PairingManager) {
        guard store == nil else { return }
        records = other.records
    }

    /// Forgets the NM-TK and data-path key for `peer` (the link dropped; hostap
    /// `nan_pairing_unpair_peer`): what a phone does when the accessory went away.
    public func dropLink(with peer: MACAddress) {
        device.removePairwiseKey(peer: peer)
        dataPathKeys[peer] = nil
    }

    /// The first cached pairing whose NIK, still within its lifetime on the calendar now,
    /// resolves `nira` as `publisher` sent it (nan-wire-reference.md 2.17, 3.6).
    public func resolve(_ nira: IdentityResolutionAttribute, publisher: MACAddress) -> PairingRecord? {
        Self.resolving(records, nira: nira, publisher: publisher, now: device.scheduler.calendarNow.unixSeconds)
    }

    /// The first of `records` whose NIK, still within its lifetime at `now` (Unix seconds),
    /// resolves `nira` as sent by `publisher`.
    public static func resolving(
        _ records: [PairingRecord],
        nira: IdentityResolutionAttribute,
        publisher: MACAddress,
        now: Int64
    ) -> PairingRecord? {
        records.first { record in
            guard let nik = record.peerNIK, record.nikIsValid(at: now) else { return false }
            return NIRATag.matches(tag: nira.tag, nik: nik, nmi: publisher.octets, nonce: nira.nonce)
        }
    }

    // MARK: - What a completed exchange leaves

    /// A completed PASN exchange with `peer`: its ND-PMK secures the peer's data paths (3.5,
    /// 4.2) and its NM-TK the unicast frames between us (3.8).
    func installKeys(_ result: PASNResult, peer: MACAddress) {
        dataPathKeys[peer] = DataPathKey(ndPMK: result.ndPMK, suite: result.suite)
        guard !configuration.deviations.contains(.noFrameProtection) else { return }
        device.installPairwiseKey(
            peer: peer,
            key: result.tk,
            cipher: result.suite == .ncsPKPASN256 ? .gcmp256 : .ccmp128
        )
    }

    /// The record a completed setup and the peer's NIK make: the one place a pairing record is
    /// built. `pairedAt` is calendar time from the scheduler, so lifetimes follow virtual time.
    func record(of result: PASNResult, peer: MACAddress, nik: NIKKeyData) -> PairingRecord {
        PairingRecord(
            peerNMI: peer,
            peerNIK: nik.nik,
            npk: result.npk,
            akm: result.akm,
            cipherSuite: result.suite.csid,
            pairedAt: device.scheduler.calendarNow.unixSeconds,
            nikLifetimeSeconds: NIKDelivery.keptLifetime(received: nik.lifetime)
        )
    }

    /// Keeps `record` in place of any record for the same peer (by NMI or NIK), last.
    func keep(_ record: PairingRecord) {
        records.removeAll { $0.peerNMI == record.peerNMI || ($0.peerNIK != nil && $0.peerNIK == record.peerNIK) }
        records.append(record)
    }

    /// Writes `record` to the store, if there is one; the store's error when it refused or
    /// failed (reported, never hidden), so that the caller does not complete a pairing that would
    /// be gone after a restart.
    @discardableResult
    func persist(_ record: PairingRecord) -> DeviceStateError? {
        guard let store, !configuration.deviations.contains(.forgetsPairings) else { return nil }
        do throws(DeviceStateError) {
            try store.upsert(record, cap: configuration.maxPairedDevices)
            report(.recordStored(record))
            return nil
        } catch {
            report(.storeFailed(error))
            return error
        }
    }

    /// Keeps `record` in memory and in the store, or in neither: a pairing whose keys are not
    /// durable is not kept, so memory and disk never disagree after a restart. The store's error
    /// when it was not kept (``PairingEvent/pairingNotKept(peer:)`` says so too).
    func keepDurably(_ record: PairingRecord) -> DeviceStateError? {
        let before = records
        keep(record)
        guard let failure = persist(record) else { return nil }
        records = before
        report(.pairingNotKept(peer: record.peerNMI))
        return failure
    }

    /// Forgets the pairing with `peer`: its record, in memory and in the store, and the keys its
    /// latest pairing left (hostap `nan_pairing_unpair_peer`). Its cached keys resolve nothing
    /// from now on: a verification from it is refused as one no record resolves (3.7). When to
    /// forget is the owner's policy (an accessory that replaces its oldest pairing when full).
    /// False when there was no such pairing; a store failure is reported, never hidden.
    @discardableResult
    public func forgetPairing(with peer: MACAddress) -> Bool {
        guard records.contains(where: { $0.peerNMI == peer }) else { return false }
        records.removeAll { $0.peerNMI == peer }
        dropLink(with: peer)
        guard let store, !configuration.deviations.contains(.forgetsPairings) else { return true }
        do throws(DeviceStateError) {
            try store.remove(peerNMI: peer)
        } catch {
            report(.storeFailed(error))
        }
        return true
    }

    func report(_ event: PairingEvent) { delegate?.pairingManager(self, didReport: event) }

    /// The DCEA of our PASN frames and NIK follow-ups: pairing setup on, caching as configured.
    var dcea: NANAttribute {
        .deviceCapabilityExtension(
            DeviceCapabilityExtensionAttribute(pairingSetupEnabled: true, npkNIKCachingEnabled: cachesKeys)
        )
    }

    /// A fresh NPKID of ours for a verification: a new nonce with the tag over our NIK and NMI (3.7).
    func freshNPKID() -> NPKID? {
        let nonce = (0..<8).map { _ in UInt8.random(in: 0...255, using: &random.generator) }
        return try? NPKID(nik: ownNIK, nmi: address.octets, nonce: nonce)
    }
}

// MARK: - Delegate

/// The policy a ``PairingManager`` leaves to its owner, as bumble's `PairingDelegate` does for
/// its SMP manager: the protocol (bootstrapping, PASN, keys, the NIK exchange, the pairing
/// record) is the manager's; who may pair, which PIN is shown or typed, how wrong PINs are
/// limited and what the owner logs are the delegate's. The accessory's firmware answers as a
/// responder, the runner's phone as an initiator; a device can be both.
///
/// Every method runs on the scheduler's thread, inside the manager's handling of a frame or a
/// timer; the manager carries on with the answer at once.
public protocol PairingDelegate: AnyObject {
    /// Responder: `peer` asks to bootstrap with `method` (nan-wire-reference.md 3.2). Authorize it
    /// (and show the PIN the person will type on the phone), or refuse it with an NPBA reason
    /// code (2.11). The delegate logs its own refusals.
    func pairingManager(
        _ manager: PairingManager,
        authorize peer: MACAddress,
        method: BootstrappingMethods
    ) -> BootstrapDecision

    /// Responder: the password for a pairing setup that `peer` opens with PASN frame 1 (3.4):
    /// the PIN shown for it. `bootstrapped` says whether a bootstrapping with `peer` was
    /// authorized. nil refuses the setup with status 1 (request declined); the delegate logs why.
    func pairingManager(_ manager: PairingManager, setupPasswordFor peer: MACAddress, bootstrapped: Bool) -> String?

    /// Initiator: the PIN the person reads off the accessory and types, once the accessory
    /// accepted PIN bootstrapping. A person takes time to read and type: `.pending` holds PASN
    /// until the delegate calls ``PairingManager/enterPIN(_:)``.
    func pairingManager(_ manager: PairingManager, pinToEnterFor peer: MACAddress) -> PINEntry

    /// What happened, for the owner's log and its policy (attempt limits, the PIN display).
    func pairingManager(_ manager: PairingManager, didReport event: PairingEvent)
}

extension PairingDelegate {
    /// A device that only initiates refuses every bootstrapping request (reason 1, unspecified).
    public func pairingManager(
        _ manager: PairingManager,
        authorize peer: MACAddress,
        method: BootstrappingMethods
    ) -> BootstrapDecision { .reject(reasonCode: 1) }

    public func pairingManager(
        _ manager: PairingManager,
        setupPasswordFor peer: MACAddress,
        bootstrapped: Bool
    ) -> String? { nil }

    public func pairingManager(_ manager: PairingManager, pinToEnterFor peer: MACAddress) -> PINEntry { .none }
}

/// An initiator delegate's answer when PASN needs the PIN.
public enum PINEntry: Hashable, Sendable {
    /// The person typed this PIN: frame 1 goes out now.
    case entered(String)
    /// No PIN was shown: the attempt ends (``PairingAttemptResult/noPIN``) without a frame 1.
    case none
    /// The person is still reading it: PASN waits for ``PairingManager/enterPIN(_:)``.
    case pending
}

/// What a ``PairingManager`` tells its delegate, in the order it happens.
public enum PairingEvent: Sendable {
    // MARK: Responder

    /// A bootstrapping request from `peer` (the delegate is asked to authorize it next).
    case bootstrapRequested(peer: MACAddress, method: BootstrappingMethods)
    /// The phone came back for the PIN with the right cookie (3.2).
    case bootstrapAccepted(peer: MACAddress)
    /// A request for a method we do not offer, refused.
    case bootstrapMethodNotOffered(peer: MACAddress, requested: BootstrappingMethods)
    /// A comeback that matches no authorized session, refused; any PIN shown for it is void.
    case bootstrapInvalidComeback(peer: MACAddress)
    /// The bootstrapping session with `peer` ended unused; any PIN shown for it is void.
    case bootstrapExpired(peer: MACAddress)
    /// The pairing attempt the bootstrapping with `peer` was for is over (completed, or failed
    /// without the phone asking again): a PIN shown for it is void.
    case bootstrapEnded(peer: MACAddress)
    /// PASN frame 1 opened a setup or a verification.
    case pairingStarted(peer: MACAddress, verification: Bool)
    /// A verification that no cached pairing resolves: refused with status 53 (invalid PMKID).
    case verificationRefused(peer: MACAddress)
    /// A PASN frame 1 or 3 seen before: ignored.
    case replayRejected(peer: MACAddress, frame: Int)
    /// A setup completed; keys are cached when both sides said so (the NIK exchange follows).
    case paired(peer: MACAddress, suite: NANSecurityCipherSuite, keyCaching: Bool)
    /// A verification completed: the peer reconnected with its cached keys.
    case reconnected(peer: MACAddress)
    /// A setup failed. `guessSpent`: our SAE confirm was out, so the peer has tested a PIN.
    case pairingFailed(peer: MACAddress, PASNFailure, guessSpent: Bool)
    /// A verification failed.
    case verificationFailed(peer: MACAddress, PASNFailure)
    /// The peer came back under a new NMI and verified the pairing made under `old`: what was
    /// kept for `old` is gone.
    case peerAddressChanged(from: MACAddress, to: MACAddress)
    /// The peer's NIK arrived but caching is off on one side: ignored, nothing kept.
    case nikIgnored(peer: MACAddress)
    /// The peer's NIK descriptor did not unwrap.
    case nikRefused(peer: MACAddress, KeyDerivationError)
    /// The NIKs are exchanged; `pairedDevices` are kept now.
    case nikExchanged(peer: MACAddress, pairedDevices: Int)

    // MARK: Initiator

    /// The accessory asked us to come back after `after` (3.2).
    case bootstrapComeback(after: Interval)
    /// The accessory authorized PIN bootstrapping: PASN starts.
    case bootstrapAuthorized(peer: MACAddress)
    /// The last frame of the setup (frame 3) went unacknowledged; the NIK goes anyway.
    case frame3Unacknowledged(peer: MACAddress)
    /// The attempt ended (``PairingManager/pair(_:)`` and ``PairingManager/verify(_:)``).
    case attemptEnded(PairingAttemptResult)

    // MARK: Both

    /// A pairing record was written to the store.
    case recordStored(PairingRecord)
    /// A pairing record could not be written (a full disk, a damaged store).
    case storeFailed(DeviceStateError)
    /// The keys of a completed setup could not be stored, so the pairing was not kept, in memory
    /// either, and the NIK exchange was not completed: neither side caches it, and the next
    /// connection needs a PIN. The store's failure came just before as ``storeFailed(_:)``.
    case pairingNotKept(peer: MACAddress)
}

/// How an initiator's pairing or verification attempt ended.
public enum PairingAttemptResult: Sendable {
    /// The setup completed. `nikReceived`: the accessory's NIK came back, so both sides cache
    /// keys; false with `nikSent` when the accessory sent none within the wait.
    case paired(PASNResult, nikSent: Bool, nikReceived: Bool)
    /// The verification completed: reconnected without a PIN.
    case reconnected(PASNResult)
    /// Nothing cached resolves the accessory (it advertises no NIRA when `advertisesNIRA` is false).
    case noCachedKeys(advertisesNIRA: Bool)
    /// The setup completed and the NIKs came, but this side could not store the keys: nothing is
    /// kept, and a reconnect needs a PIN.
    case notStored(PASNResult, DeviceStateError)
    /// No PIN was entered (none shown, or the delegate gave up reading one): no frame 1 went out.
    case noPIN
    case bootstrapFailed(BootstrapFailure)
    case pasnFailed(PASNFailure)
}

// MARK: - Configuration

extension PairingManager {
    /// What a device offers and keeps (the accessory's from its profile's `pairing` section).
    public struct Configuration: Hashable, Sendable {
        /// Whether the device answers pairing (the responder role): an accessory does; the
        /// runner's phone only initiates, and ignores requests and frame 1s from others.
        public var responds: Bool
        /// The bootstrapping methods a responder offers (nan-wire-reference.md 2.11).
        public var offeredMethods: BootstrappingMethods
        /// The Comeback After a responder asks for while the PIN is shown.
        public var comebackAfterTU: UInt16
        /// Whether this device keeps NPK and NIK (both sides must, 3.6).
        public var cachesKeys: Bool
        /// The lifetime our NIK is given in the Key Lifetime KDE; 0 is no expiry.
        public var nikLifetimeSeconds: Int
        /// The cipher suites a responder pairs with, preferred first.
        public var cipherSuites: [NANSecurityCipherSuite]
        /// The most pairings the store keeps; nil keeps every one.
        public var maxPairedDevices: Int?
        /// Where this device departs from the protocol: fault injection. A conforming device has none.
        public var deviations: Set<PairingDeviation>
        /// What a responder sends as service info beside its NIK, by publish instance: the
        /// service's Generic Service Protocol (port, instance name), which ESP-IDF adds for the
        /// iPhone (nan-wire-reference.md 3.9). Instances without an entry send none.
        public var keyExchangeServiceInfo: [UInt8: ServiceSpecificInfo]

        public init(
            responds: Bool,
            offeredMethods: BootstrappingMethods = .pinCodeDisplay,
            comebackAfterTU: UInt16 = 0,
            cachesKeys: Bool = true,
            nikLifetimeSeconds: Int = 86_400,
            cipherSuites: [NANSecurityCipherSuite] = [.ncsPKPASN128],
            maxPairedDevices: Int? = nil,
            deviations: Set<PairingDeviation> = [],
            keyExchangeServiceInfo: [UInt8: ServiceSpecificInfo] = [:]
        ) {
            self.keyExchangeServiceInfo = keyExchangeServiceInfo
            self.responds = responds
            self.offeredMethods = offeredMethods
            self.comebackAfterTU = comebackAfterTU
            self.cachesKeys = cachesKeys
            self.nikLifetimeSeconds = nikLifetimeSeconds
            self.cipherSuites = cipherSuites
            self.maxPairedDevices = maxPairedDevices
            self.deviations = deviations
        }
    }
}

/// Ways a device's pairing departs from the protocol, so that a test can show it is caught
/// (the accessory's faults, the runner's misbehaving phones). Each names what it does wrong.
public enum PairingDeviation: Hashable, Sendable, CaseIterable {
    // Responder.
    /// Accepts a bootstrapping request for a method it does not offer.
    case acceptsAnyBootstrapMethod
    /// Accepts a comeback with the wrong cookie.
    case acceptsWrongCookie
    /// Ignores the phone's PASN abort (and a new frame 1 while an exchange runs).
    case ignoresPASNAbort
    /// Acts on replayed PASN frames 1 and 3.
    case acceptsReplays
    /// Refuses every pairing verification.
    case refusesVerification
    /// Takes a verification whose frame 3 MIC fails as a reconnect.
    case skipsFrame3MIC
    /// Sends its NIK even when caching is off on one side.
    case sendsNIKWithoutCaching
    /// Gives its NIK a 12-hour lifetime whatever it is configured with.
    case halfDayNIKLifetime
    /// Refuses a peer's NIK that came without the Key Lifetime KDE (hostap's receiver, 3.6).
    case requiresNIKLifetime
    /// Reads a peer's NIK descriptor as always carrying a 16-octet Key MIC field (hostap's
    /// current `nan_pairing_followup_rx`, 3.9).
    case readsNIKWithMICField
    /// Reads a Key MIC field in a peer's NIK descriptor only when the Key MIC bit is set.
    case readsNIKMICByFlag
    /// Sends its NIK without the NIRA and service info beside it.
    case sendsBareNIK
    /// Forgets a shown PIN's bootstrapping after 30 s, before a slow person has typed it.
    case shortBootstrapSession
    /// Keeps the pairing it holds for a NIK when that phone pairs again, and answers as if it
    /// had stored the new one: the phone's new keys never verify.
    case keepsStalePairing
    /// Looks a verifying phone's pairing up by its NMI instead of its NPKID (which the phone
    /// makes from its NIK), so a phone under a new NMI is a stranger.
    case findsPairingByAddress
    /// Computes its NIRA tag over an NMI it no longer uses.
    case staleNIRATag
    /// Keeps pairings only until it restarts.
    case forgetsPairings
    // Both.
    /// Installs no NM-TK: unicast frames to paired peers go unprotected.
    case noFrameProtection
    // Initiator.
    /// Answers the comeback with another cookie.
    case sendsWrongCookie
    /// Starts PASN without bootstrapping.
    case skipsBootstrapping
    /// Aborts after PASN frame 2 instead of sending frame 3.
    case abortsAfterFrame2
    /// Verifies with a wrong cached NPK (tests that the responder checks frame 3's MIC).
    case corruptsCachedNPK
    /// Carries on to frame 3 when frame 2's MIC does not verify.
    case ignoresFrame2MIC
    /// Sends its NIK after a setup even when caching is off on one side.
    case sendsNIKRegardless
    /// Says in its DCEA that it caches keys, then sends no NIK after a setup: it waits for the
    /// responder's, which only answers the initiator's (nan-wire-reference.md 3.6).
    case withholdsNIK
}
