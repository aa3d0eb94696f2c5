/// What CCMP and GCMP need from the MAC header of a data frame (IEEE 802.11-2020
/// 12.5.3.3.3–12.5.3.3.4, reused by GCMP in 12.5.5.3.3–12.5.5.3.4): where the body starts,
/// the AAD and the nonce inputs. A NAN data path sends QoS Data frames NDI to NDI
/// (To DS = From DS = 0); non-QoS Data frames follow the same rules without QoS Control,
/// which is how the published CCMP vector (a non-QoS Data frame) checks them.
///
/// Layout: Frame Control, Duration, A1, A2, A3, Sequence Control (24 octets), QoS Control
/// (2, QoS subtypes: b7 of the subtype set), HT Control (4, QoS frames with +HTC/Order set).
struct DataHeader {
    static let baseLength = 24

    /// Frame Control octet 0: subtype b4–b6 (the QoS bit b7 stays); octet 1: flag bits.
    static let subtypeLowBits: UInt8 = 0x70
    static let qosSubtypeBit: UInt8 = 0x80
    static let toDSBit: UInt8 = 0x01
    static let fromDSBit: UInt8 = 0x02

    /// The header octets, QoS Control and HT Control included.
    let octets: [UInt8]
    let hasQoSControl: Bool

    var length: Int { octets.count }

    init(frame: [UInt8]) throws(FrameProtectionError) {
        guard frame.count >= Self.baseLength else {
            throw .frameTooShort(minimum: Self.baseLength, actual: frame.count)
        }
        let type = (frame[0] >> 2) & 0x03
        guard type == 2 else { throw .notDataFrame(type: type) }
        guard frame[1] & (Self.toDSBit | Self.fromDSBit) != Self.toDSBit | Self.fromDSBit else {
            throw .fourAddressFrame
        }
        hasQoSControl = frame[0] & Self.qosSubtypeBit != 0
        let hasHTControl = hasQoSControl && frame[1] & ManagementHeader.orderBit != 0
        let length = Self.baseLength + (hasQoSControl ? 2 : 0) + (hasHTControl ? 4 : 0)
        guard frame.count >= length else { throw .frameTooShort(minimum: length, actual: frame.count) }
        octets = Array(frame[0..<length])
    }

    var isProtected: Bool { octets[1] & ManagementHeader.protectedBit != 0 }

    /// A2, the transmitter address, which both nonces carry.
    var transmitterAddress: ArraySlice<UInt8> { octets[10..<16] }

    /// TID, bits 0–3 of QoS Control; 0 without one (the nonce's Priority, 12.5.3.3.4).
    var priority: UInt8 { hasQoSControl ? octets[24] & 0x0F : 0 }

    /// FC with subtype b4–b6, Retry, Power Management and More Data masked to 0, Protected
    /// set, and Order masked in QoS frames; A1, A2, A3; Sequence Control with only the
    /// fragment number; QoS Control with only the TID (the A-MSDU Present bit is kept only
    /// between SPP A-MSDU capable peers, which NAN does not negotiate). HT Control is not
    /// covered. 22 octets, 24 with QoS Control (12.5.3.3.3).
    var additionalAuthenticatedData: [UInt8] {
        let flagMask =
            ManagementHeader.retryBit | ManagementHeader.powerManagementBit | ManagementHeader.moreDataBit
            | (hasQoSControl ? ManagementHeader.orderBit : 0)
        var aad = [octets[0] & ~Self.subtypeLowBits, (octets[1] & ~flagMask) | ManagementHeader.protectedBit]
        aad += octets[4..<22]
        aad += [octets[22] & 0x0F, 0]
        if hasQoSControl { aad += [octets[24] & 0x0F, 0] }
        return aad
    }

    /// CCM nonce: Nonce Flags (Priority = TID in b0–b3, Management b4 = 0, PV1 0) || A2 ||
    /// PN5…PN0 (12.5.3.3.4).
    func ccmpNonce(_ header: ProtectionHeader) -> [UInt8] {
        [priority] + transmitterAddress + header.packetNumberBigEndian
    }

    /// GCM nonce: A2 || PN5…PN0, 12 octets: GCMP carries no priority (12.5.5.3.4).
    func gcmpNonce(_ header: ProtectionHeader) -> [UInt8] {
        Array(transmitterAddress) + header.packetNumberBigEndian
    }

    func withProtected(_ on: Bool) -> [UInt8] {
        var out = octets
        out[1] = on ? out[1] | ManagementHeader.protectedBit : out[1] & ~ManagementHeader.protectedBit
        return out
    }
}
