import Foundation

/// Captures written octet by octet, without the AwareWire codec, so that the analyzer is
/// judged against bytes laid out from nan-wire-reference.md by hand.
enum HandBuiltCapture {
    static let accessory: [UInt8] = [0x02, 0xA0, 0x00, 0x00, 0x00, 0x01]
    static let phone: [UInt8] = [0x02, 0xB0, 0x00, 0x00, 0x00, 0x02]
    static let networkID: [UInt8] = [0x51, 0x6F, 0x9A, 0x01, 0x00, 0x00]
    static let cluster: [UInt8] = [0x50, 0x6F, 0x9A, 0x01, 0x12, 0x34]
    /// SHA-256("_drone-service._udp")[0..5], from Fixtures/hostap-session-A/README.md.
    static let droneServiceID: [UInt8] = [0x34, 0x25, 0xF1, 0x7B, 0xDA, 0x31]

    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }

    /// `id | length (LE16) | body` (2.1).
    static func attribute(_ id: UInt8, _ body: [UInt8]) -> [UInt8] { [id] + le16(body.count) + body }

    /// Management header: Frame Control, Duration 0, A1, A2, A3, Sequence Control.
    static func header(
        _ frameControl: [UInt8],
        to a1: [UInt8],
        from a2: [UInt8],
        a3: [UInt8] = cluster,
        sequence: Int = 0
    ) -> [UInt8] {
        frameControl + [0, 0] + a1 + a2 + a3 + le16(sequence << 4)
    }

    /// An SDF (1.1); A3 is the NAN Network ID (unsynchronized discovery) unless told otherwise: Action header, Category, Vendor Specific, WFA OUI, type 0x13, attributes.
    static func sdf(
        to a1: [UInt8] = networkID,
        from a2: [UInt8] = accessory,
        category: UInt8 = 4,
        protected: Bool = false,
        retry: Bool = false,
        a3: [UInt8] = networkID,
        attributes: [[UInt8]]
    ) -> [UInt8] {
        let flags: UInt8 = (protected ? 0x40 : 0) | (retry ? 0x08 : 0)
        return header([0xD0, flags], to: a1, from: a2, a3: a3) + [category, 0x09, 0x50, 0x6F, 0x9A, 0x13]
            + attributes.flatMap { $0 }
    }

    /// SDA (2.4): Service ID, Instance ID, Requestor Instance ID, Service Control (type only).
    static func sda(serviceID: [UInt8] = droneServiceID, instance: UInt8 = 1, type: UInt8 = 0) -> [UInt8] {
        attribute(0x03, serviceID + [instance, 0, type])
    }

    /// SDEA (2.5) with Service Info `50 6F 9A 01 <TXT>` (Bonjour).
    static func sdea(instance: UInt8 = 1, txt: [String]) -> [UInt8] {
        let record = txt.flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) }
        let info: [UInt8] = [0x50, 0x6F, 0x9A, 0x01] + record
        return attribute(0x0E, [instance, 0, 0] + le16(info.count) + info)
    }

    /// DCEA (2.16): octet 1 b0 pairing setup, b1 NPK/NIK caching.
    static func dcea(pairingSetup: Bool = true, caching: Bool = true) -> [UInt8] {
        attribute(0x2A, [0x00, (pairingSetup ? 0x01 : 0) | (caching ? 0x02 : 0)])
    }

    /// NPBA (2.18) without comeback: token, type | status << 4, reason, methods.
    static func npba(token: UInt8 = 0, type: UInt8 = 0, status: UInt8 = 0, methods: Int) -> [UInt8] {
        attribute(0x2C, [token, type | status << 4, 0] + le16(methods))
    }

    /// NIRA (2.17): cipher version 0, nonce, tag.
    static func nira() -> [UInt8] {
        attribute(0x2B, [0] + [UInt8](repeating: 0x11, count: 8) + [UInt8](repeating: 0x22, count: 8))
    }

    static let droneTXT = ["vendorName=Example Inc", "modelName=Example Model", "pairingName=My Drone"]

    /// The accessory's publish, as the drone sends it.
    static func publish(
        serviceID: [UInt8] = droneServiceID,
        txt: [String] = droneTXT,
        nira: Bool = false,
        retry: Bool = false,
        a3: [UInt8] = networkID
    ) -> [UInt8] {
        var attributes = [sda(serviceID: serviceID), sdea(txt: txt), npba(methods: 0x0002), dcea()]
        if nira { attributes.append(Self.nira()) }
        return sdf(retry: retry, a3: a3, attributes: attributes)
    }

    /// A PASN Authentication frame (3.4.1): algorithm 7, sequence, status, no elements.
    static func pasn(_ sequence: Int, from a2: [UInt8], to a1: [UInt8], status: Int = 0) -> [UInt8] {
        header([0xB0, 0x00], to: a1, from: a2) + le16(7) + le16(sequence) + le16(status)
    }

    /// PASN 1, 2, 3 between the phone (initiator) and the accessory (responder).
    static var pairing: [[UInt8]] {
        [pasn(1, from: phone, to: accessory), pasn(2, from: accessory, to: phone), pasn(3, from: phone, to: accessory)]
    }

    /// A QoS Data frame (IEEE 802.11-2020 9.3.2.1): Frame Control 88 00 (88 40 protected), header,
    /// QoS Control (TID 5), then `length` octets of body (plaintext or ciphertext alike).
    static func qosData(from a2: [UInt8], to a1: [UInt8], protected: Bool, sequence: Int, length: Int = 64) -> [UInt8] {
        header([0x88, protected ? 0x40 : 0x00], to: a1, from: a2, sequence: sequence) + [0x05, 0x00]
            + [UInt8](repeating: 0x54, count: length)
    }

    /// A NAN beacon (1.4): Timestamp, Beacon Interval 512, Capability, NAN element with Master
    /// Indication and Cluster attributes.
    static func beacon(tsf: UInt64, from a2: [UInt8] = phone) -> [UInt8] {
        let timestamp = (0..<8).map { UInt8(tsf >> (8 * UInt64($0)) & 0xFF) }
        let attributes = attribute(0x00, [0x80, 0x01]) + attribute(0x01, [UInt8](repeating: 0, count: 13))
        let element: [UInt8] = [0xDD, UInt8(4 + attributes.count), 0x50, 0x6F, 0x9A, 0x13] + attributes
        return header([0x80, 0x00], to: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], from: a2) + timestamp
            + le16(512) + [0x20, 0x04] + element
    }

    /// A classic pcap (little-endian, µs) with link type 105 or 127: each packet is
    /// (microseconds, octets, original length if cut short).
    static func pcap(
        linkType: UInt32 = 105,
        _ packets: [(microseconds: UInt64, octets: [UInt8], original: Int?)]
    )
        -> [UInt8]
    {
        var file: [UInt8] =
            [0xD4, 0xC3, 0xB2, 0xA1] + le16(2) + le16(4) + le32(0) + le32(0) + le32(65_535)
            + le32(linkType)
        for packet in packets {
            file += le32(UInt32(packet.microseconds / 1_000_000)) + le32(UInt32(packet.microseconds % 1_000_000))
            file += le32(UInt32(packet.octets.count)) + le32(UInt32(packet.original ?? packet.octets.count))
            file += packet.octets
        }
        return file
    }

    /// Frames one millisecond apart.
    static func pcap(_ frames: [[UInt8]]) -> [UInt8] {
        pcap(frames.enumerated().map { (UInt64(1_000_000 + $0.offset * 1_000), $0.element, nil) })
    }

    /// Radiotap (link type 127) with Flags (FCS at end) and the FCS appended.
    static func radiotapWithFCS(_ frame: [UInt8], fcs: UInt32) -> [UInt8] {
        // it_version 0, pad, it_len 9, present = Flags (bit 1), flags 0x10.
        [0x00, 0x00, 0x09, 0x00, 0x02, 0x00, 0x00, 0x00, 0x10] + frame + le32(fcs)
    }

    /// The IEEE CRC-32 (the 802.11 FCS), computed here bit by bit, independently of AwareWire.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
