import AwareCrypto
import AwareWire

/// The NIK a paired device hands its peer in a protected Follow-up, so that the peer can
/// resolve its NIRA later (nan-wire-reference.md 3.6): a Shared Key Descriptor whose Key Data
/// is the NIK KDE and Key Lifetime KDE, AES-key-wrapped with the NM-KEK.
///
/// The descriptor has two forms in the field (3.9). hostap's current `nan_send_nik` writes a
/// 16-octet zero Key MIC field with the MIC bit set (Key Information 0x1188), and its
/// `nan_pairing_followup_rx` reads Key Data Length after that field unconditionally; ESP-IDF also
/// writes a zero MIC field (0x12C8). hostap's earlier code, which recorded session A, wrote no
/// MIC field (0x1088). The two current implementations agree, so we send the zero-MIC form; we
/// accept every form on receive (a zero MIC of 16 or 24 octets or none, with or without the
/// Lifetime KDE). No cited specification clause settles it.
public enum NIKDelivery {
    /// The descriptor forms (3.9).
    public enum Form: String, Hashable, Sendable, CaseIterable {
        /// A 16-octet zero Key MIC field, Key Information 0x1188 (current hostap; ESP-IDF's
        /// field layout). What we send.
        case zeroMIC
        /// No Key MIC field, Key Information 0x1088 (hostap as recorded in session A).
        case noMIC
        /// A 16-octet zero Key MIC field under Key Information 0x12C8 (Key Type, Install, Ack,
        /// Secure, Encrypted Key Data; the MIC bit clear): ESP-IDF's form, written by the code
        /// that claims iPhone interoperability (3.9).
        case zeroMICUnflagged

        public var keyInformation: EAPOLKeyInformation {
            switch self {
            case .zeroMIC: [.pairwise, .keyAck, .keyMIC, .encryptedKeyData]
            case .noMIC: [.pairwise, .keyAck, .encryptedKeyData]
            case .zeroMICUnflagged: [.pairwise, .install, .keyAck, .secure, .encryptedKeyData]
            }
        }

        public var micLayout: KeyMICLayout {
            switch self {
            case .zeroMIC, .zeroMICUnflagged: .octets16
            case .noMIC: .absent
            }
        }
    }

    /// AKM-defined descriptor version, Key Type pairwise, Key Ack, Encrypted Key Data (hostap as
    /// recorded in session A; ``Form/zeroMIC`` adds Key MIC).
    public static let keyInformation: EAPOLKeyInformation = Form.noMIC.keyInformation

    /// The Key Lifetime KDE value for a NIK that does not expire: the largest the 32-bit field
    /// holds (about 136 years). The KDE carries the remaining lifetime in seconds
    /// (nan-wire-reference.md 3.6) and no source this project can cite gives a value for "no
    /// expiry". 0 is read both ways: ESP-IDF keeps a NIK whose lifetime is 0 forever, while
    /// Android's HAL reports an expired NIK's remaining lifetime as 0. So 0 is never sent for
    /// "no expiry" (a peer of the second reading would forget the accessory at once); the
    /// maximum means "keep it" in every reading.
    public static let noExpiryLifetime: UInt32 = 0xFFFF_FFFF

    /// What goes in the Key Lifetime KDE for a lifetime kept as `seconds`, where 0 means no
    /// expiry (the profile's `nikLifetimeSeconds` and ``PairingRecord``'s convention).
    public static func lifetimeOnWire(seconds: Int) -> UInt32 {
        seconds <= 0 ? noExpiryLifetime : UInt32(clamping: seconds)
    }

    /// The lifetime to keep (0 = no expiry) for the Key Lifetime KDE a peer sent: none at all
    /// (ESP-IDF may leave the KDE out), 0 (ESP-IDF's "no expiry"; a peer whose NIK had really
    /// expired would not hand it over) and the maximum all mean no expiry; anything else is the
    /// seconds the peer gave.
    public static func keptLifetime(received: UInt32?) -> Int {
        guard let received, received != 0, received != noExpiryLifetime else { return 0 }
        return Int(received)
    }

    /// The SKDA carrying `nik`. Publish ID is the sender's own instance (hostap: its handle).
    public static func attribute(
        nik: [UInt8],
        lifetimeSeconds: UInt32?,
        nmKEK: [UInt8],
        suite: NANSecurityCipherSuite,
        publishID: UInt8,
        form: Form = .zeroMIC
    ) throws(KeyDerivationError) -> NANAttribute {
        let keyData = try NIKKeyData(nik: nik, lifetime: lifetimeSeconds).wrapped(kek: nmKEK)
        let descriptor = RSNAKeyDescriptor(
            keyInformation: form.keyInformation,
            keyLength: suite == .ncsPKPASN256 ? 32 : 16,
            micLayout: form.micLayout,
            keyData: keyData
        )
        return .sharedKeyDescriptor(SharedKeyDescriptorAttribute(publishID: publishID, keyDescriptor: descriptor))
    }

    /// The NIK in `attributes`, or nil when they carry no Shared Key Descriptor. Every MIC layout
    /// the lengths allow is tried (3.9: Key Data Length at offset 77 or 77 + MIC), unless
    /// `layout` names the one layout to read it in: a receiver that knows only one (hostap's
    /// current `nan_pairing_followup_rx` always expects a MIC field), which fault injection plays.
    public static func receive(
        _ attributes: [NANAttribute],
        nmKEK: [UInt8],
        layout: ((EAPOLKeyInformation) -> KeyMICLayout)? = nil
    ) -> Result<NIKKeyData, KeyDerivationError>? {
        var found: SharedKeyDescriptorAttribute?
        for case .sharedKeyDescriptor(let skda) in attributes {
            found = skda
            break
        }
        guard let skda = found else { return nil }
        let information = skda.keyDescriptor.keyInformation
        guard information.contains(.pairwise), information.contains(.encryptedKeyData) else {
            return .failure(.malformedKeyData(reason: "the NIK descriptor lacks Key Type or Encrypted Key Data"))
        }
        var lastError = KeyDerivationError.malformedKeyData(reason: "no Key Data")
        let tried =
            layout.map { chosen in reread(skda, as: chosen(information)).map { [$0] } ?? [] } ?? candidates(skda)
        if tried.isEmpty {
            return .failure(.malformedKeyData(reason: "the descriptor does not parse in the one layout read"))
        }
        for candidate in tried {
            do throws(KeyDerivationError) {
                let data = try NIKKeyData.unwrap(candidate.keyDescriptor.keyData, kek: nmKEK)
                return .success(data)
            } catch {
                lastError = error
            }
        }
        return .failure(lastError)
    }

    /// The descriptor's octets read under `layout`; nil when they do not parse that way.
    private static func reread(
        _ skda: SharedKeyDescriptorAttribute,
        as layout: KeyMICLayout
    )
        -> SharedKeyDescriptorAttribute?
    {
        if skda.keyDescriptor.micLayout == layout { return skda }
        var writer = WireWriter()
        skda.write(to: &writer)
        var reader = WireReader(writer.bytes, structure: "Shared Key Descriptor")
        return try? SharedKeyDescriptorAttribute(from: &reader, micLayout: layout)
    }

    /// The descriptor as parsed, then under every other layout its octets fit.
    private static func candidates(_ skda: SharedKeyDescriptorAttribute) -> [SharedKeyDescriptorAttribute] {
        var writer = WireWriter()
        skda.write(to: &writer)
        let body = writer.bytes
        var result = [skda]
        let afterKeyID = body.dropFirst(1 + RSNAKeyDescriptor.fixedLength)
        for layout in RSNAKeyDescriptor.consistentMICLayouts(afterKeyID: afterKeyID)
        where layout != skda.keyDescriptor.micLayout {
            var reader = WireReader(body, structure: "Shared Key Descriptor")
            if let other = try? SharedKeyDescriptorAttribute(from: &reader, micLayout: layout) {
                result.append(other)
            }
        }
        return result
    }
}
