import AwareCrypto
import AwareDevice
import AwareProtocol
import AwareWire
import Foundation

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
            akm: result.akm == .sae ? .sae : .pasn,
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
