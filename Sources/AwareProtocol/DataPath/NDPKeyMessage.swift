import AwareCrypto
import AwareWire

/// The four key descriptors of the NDP handshake (nan-wire-reference.md 4.2 table).
enum NDPKeyMessage: Int {
    case m1 = 1
    case m2 = 2
    case m3 = 3
    case m4 = 4

    /// Key Information: m1 Pairwise+Ack, m2 Pairwise+MIC, m3 Pairwise+Install+Ack+MIC+Secure,
    /// m4 Pairwise+Install+MIC+Secure. Encrypted Key Data (0x1000) is allowed on m3 / m4.
    var keyInformation: EAPOLKeyInformation {
        switch self {
        case .m1: [.pairwise, .keyAck]
        case .m2: [.pairwise, .keyMIC]
        case .m3: [.pairwise, .install, .keyAck, .keyMIC, .secure]
        case .m4: [.pairwise, .install, .keyMIC, .secure]
        }
    }

    func descriptor(nonce: [UInt8], replayCounter: UInt64, suite: NANSecurityCipherSuite) -> RSNAKeyDescriptor {
        RSNAKeyDescriptor(
            keyInformation: keyInformation,
            replayCounter: replayCounter,
            nonce: nonce,
            micLayout: suite.keyMICLayout
        )
    }

    /// Whether a received descriptor is this message.
    func matches(_ descriptor: RSNAKeyDescriptor) -> Bool {
        var information = descriptor.keyInformation
        if self == .m3 || self == .m4 { information.remove(.encryptedKeyData) }
        return information == keyInformation && descriptor.nonce.count == 32
    }
}
