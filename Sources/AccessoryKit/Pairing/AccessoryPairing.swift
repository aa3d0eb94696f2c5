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
