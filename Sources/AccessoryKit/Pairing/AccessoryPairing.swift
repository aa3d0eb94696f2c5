import AwareCore
import AwareCrypto
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire
import Foundation

/// The accessory's pairing firmware (nan-wire-reference.md 3; apple-peer-model.md 3-5): it
/// answers bootstrapping requests by showing a fresh PIN, runs the PASN responder for pairing
/// setup and verification, exchanges NIKs when both sides cache keys, keeps paired devices in
/// its store, limits wrong PINs, and advertises a NIRA so that paired phones recognise it.
///
/// The protocol machines (``BootstrapResponder``, ``PASNResponder``) stay pure; this class is
/// the edge that feeds them, keeps per-peer state, applies faults, and tells the owner.
final class AccessoryPairing {
    let settings: PairingSettings
    let pairingName: String
    let device: NANDevice
    let store: PairingStore?
    let faults: Set<AccessoryFault>
    let pinSource: PINSource
    var random: SeededGenerator
    var bootstrap: BootstrapResponder
    var limiter: PairingAttemptLimiter
    /// PIN of the current attempt, per phone; gone once the attempt ends.
    var pins: [MACAddress: PINCode] = [:]
    var lastPIN: PINCode?
    var responders: [MACAddress: ResponderRun] = [:]
    /// The phone whose bootstrapping must outlive the pairing attempt being ended now
    /// (``endAbandonedPairing(with:)``): set only while that attempt fails.
    var keepsBootstrap: MACAddress?
    /// Keys of completed pairings in this run, per phone, until the NIK exchange is done.
    var sessions: [MACAddress: PASNResult] = [:]
    /// The ND-PMK and cipher suite of each peer's latest pairing or verification, in memory:
    /// after a restart the phone verifies again before it opens a data path.
    var dataPathKeys: [MACAddress: (ndPMK: [UInt8], suite: NANSecurityCipherSuite)] = [:]
    /// Digests of PASN frames 1 and 3 already acted on (replay protection).
    var seenFrames: [[UInt8]] = []
    var records: [PairingRecord]
    let ownNIK: [UInt8]
    /// This boot's NIRA: a fresh nonce, the tag over our NIK and current NMI (3.3, 3.7).
    let identityResolution: IdentityResolutionAttribute?
    var bootstrapTimers: [BootstrapTimer: ScheduledWork] = [:]
    var unlockWork: ScheduledWork?
    /// The publish instance of the first service, the instance our follow-ups speak for.
    var localInstanceID: UInt8 = 1

    var emit: (String, [(String, JSONValue)], String) -> Void
    var display: (PINDisplay) -> Void

    struct ResponderRun {
        var machine: PASNResponder
        var frame1Body: [UInt8]
        var timer: ScheduledWork?
        var channel: NANChannel
        /// Our SAE confirm went out: the phone has tested a PIN guess.
        var guessSpent: Bool
    }

    init(
        settings: PairingSettings,
        pairingName: String,
        device: NANDevice,
        store: PairingStore?,
        seed: UInt64,
        faults: Set<AccessoryFault>,
        pinSource: PINSource,
        emit: @escaping (String, [(String, JSONValue)], String) -> Void,
        display: @escaping (PINDisplay) -> Void
    ) {
        self.settings = settings
        self.pairingName = pairingName
        self.device = device
        self.store = store
        self.faults = faults
        self.pinSource = pinSource
        self.emit = emit
        self.display = display
        random = SeededGenerator(seed: seed ^ 0x5041_4952_494E_4721)
        bootstrap = BootstrapResponder(
            configuration: BootstrapResponderConfiguration(
                offered: BootstrappingMethods(rawValue: settings.bootstrappingBitmap),
                comebackAfterTU: UInt16(clamping: settings.pin.comebackAfterTU)
            )
        )
        limiter = PairingAttemptLimiter(policy: settings.pin)
        var generator = random
        var nik = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        var loaded: [PairingRecord] = []
        if let store {
            if faults.contains(.keysSurviveReset) { Self.restoreShadowCopy(store) }
            let stored = Result { () throws(DeviceStateError) in
                (try store.ownNIK(creatingWith: { nik }), try store.records)
            }
            switch stored {
            case .success(let (own, peers)):
                nik = own
                loaded = faults.contains(.forgetKeysOnRestart) ? [] : peers
            case .failure(let error):
                emit("error", [("message", .string("pairing store: \(error)"))], "pairing store: \(error)")
            }
        }
        ownNIK = nik
        records = loaded
        let nonce =
            faults.contains(.fixedNIRANonce)
            ? [UInt8](repeating: 0x4E, count: 8) : (0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) }
        random = generator
        if settings.cache.npk && settings.cache.nik {
            // A stale tag is computed over an NMI the accessory no longer uses.
            let nmi = faults.contains(.staleNIRATag) ? MACAddress(0x02, 0, 0, 0, 0, 0x5A) : device.configuration.address
            let tag = (try? NIRATag.compute(nik: nik, nmi: nmi.octets, nonce: nonce)) ?? []
            identityResolution = IdentityResolutionAttribute(nonce: nonce, tag: tag)
        } else {
            identityResolution = nil
        }
    }

    var address: MACAddress { device.configuration.address }
    var cachesKeys: Bool { settings.cache.npk && settings.cache.nik }
    var now: Instant { device.now }

    /// The suites we pair with, as CSIDs, in the profile's order.
    var offeredSuites: [UInt8] { settings.cipherSuites.map(\.csid) }

    /// Cancels every timer (the accessory stops).
    func stop() {
        for work in bootstrapTimers.values { device.scheduler.cancel(work) }
        bootstrapTimers.removeAll()
        for run in responders.values { if let timer = run.timer { device.scheduler.cancel(timer) } }
        responders.removeAll()
        if let unlockWork { device.scheduler.cancel(unlockWork) }
    }

    /// Remembers `digest` as acted on; false when it was seen before.
    func firstSighting(_ body: [UInt8]) -> Bool {
        let digest = KDFHash.sha256.digest(body)
        guard !seenFrames.contains(digest) else { return false }
        seenFrames.append(digest)
        if seenFrames.count > 512 { seenFrames.removeFirst(seenFrames.count - 512) }
        return true
    }
}

// MARK: - AccessoryPairing+Keys

extension AccessoryPairing {
    /// The phone's NIK after a pairing (nan-wire-reference.md 3.6): it sends first, we store the
    /// pairing and answer with ours. Both sides must cache keys; otherwise the descriptor is
    /// ignored and nothing is kept.
    func nikReceived(_ message: FollowUpMessage) {
        let peer = message.peerAddress
        guard let result = sessions[peer] else { return }
        let exchange = cachesKeys && result.peerCachesKeys
        guard exchange || faults.contains(.nikWithoutCaching) else {
            emit(
                "nik_ignored",
                [("peer", .string(peer.description))],
                "ignored \(peer)'s NIK: key caching is off on one side"
            )
            return
        }
        guard let received = NIKDelivery.receive(message.attributes, nmKEK: result.nmKEK) else { return }
        let nik: NIKKeyData
        switch received {
        case .success(let value): nik = value
        case .failure(let error):
            emit(
                "nik_refused",
                [("peer", .string(peer.description)), ("reason", .string("\(error)"))],
                "refused \(peer)'s NIK: \(error)"
            )
            return
        }
        sessions[peer] = nil
        let record = PairingRecord(
            peerNMI: peer,
            peerNIK: nik.nik,
            npk: result.npk,
            akm: result.akm,
            cipherSuite: result.suite.csid,
            pairedAt: Int64(Date().timeIntervalSince1970),
            nikLifetimeSeconds: NIKDelivery.keptLifetime(received: nik.lifetime)
        )
        if exchange {
            records.removeAll { $0.peerNMI == peer || $0.peerNIK == nik.nik }
            records.append(record)
            persist(record)
        }
        // The profile's 0 ("no expiry") goes on the air as NIKDelivery.noExpiryLifetime, not as
        // a 12-hour lifetime a phone would honour by forgetting the accessory.
        let lifetime =
            faults.contains(.halfDayNIKLifetime)
            ? 43_200 : NIKDelivery.lifetimeOnWire(seconds: settings.cache.nikLifetimeSeconds)
        guard
            let attribute = try? NIKDelivery.attribute(
                nik: ownNIK,
                lifetimeSeconds: lifetime,
                nmKEK: result.nmKEK,
                suite: result.suite,
                publishID: message.localInstanceID
            )
        else { return }
        // ESP-IDF notes that the iPhone wants the NIRA beside the NIK before it commits the
        // pairing record (3.9); it costs nothing to send.
        var attributes = [dcea, attribute]
        if let identityResolution { attributes.insert(.identityResolution(identityResolution), at: 1) }
        device.perform(
            .transmitFollowUp(
                FollowUpRequest(
                    localInstanceID: message.localInstanceID,
                    peerAddress: peer,
                    peerInstanceID: message.peerInstanceID,
                    attributes: attributes
                )
            )
        )
        emit(
            "nik_exchanged",
            [("peer", .string(peer.description)), ("pairedDevices", .unsigned(UInt64(records.count)))],
            "exchanged identity keys with \(peer); \(records.count) paired device(s) stored"
        )
    }

    /// Writes `record` to the store, if there is one. A failure is reported, never hidden.
    func persist(_ record: PairingRecord) {
        guard let store, !faults.contains(.forgetKeysOnRestart) else { return }
        do throws(DeviceStateError) {
            try store.upsert(record, cap: faults.contains(.noPairingLimit) ? nil : settings.maxPairedDevices)
            if faults.contains(.keysSurviveReset) { Self.writeShadowCopy(store) }
        } catch {
            emit("error", [("message", .string("pairing store: \(error)"))], "pairing store: \(error)")
        }
    }

    /// The `keys-survive-reset` fault: firmware that mirrors its pairings into a second file the
    /// factory reset does not know about, and restores them when the store is empty.
    static let shadowName = "pairings-shadow.json"

    static func writeShadowCopy(_ store: PairingStore) {
        guard let data = try? store.directory.read(PairingStore.fileName) else { return }
        try? store.directory.writeAtomically(data, to: shadowName)
    }

    static func restoreShadowCopy(_ store: PairingStore) {
        guard (try? store.directory.read(PairingStore.fileName)) == .some(nil),
            let shadow = try? store.directory.read(shadowName)
        else { return }
        try? store.directory.writeAtomically(shadow, to: PairingStore.fileName)
    }
}
