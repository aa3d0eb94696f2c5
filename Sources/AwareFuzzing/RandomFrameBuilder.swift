import AwareCore
import AwareWire

/// Frames with a right 802.11 header and a right NAN frame prefix, followed by random
/// type-length-value runs: attributes in SDFs and NAFs (nan-wire-reference.md 2.1),
/// elements in PASN Authentication frames and beacons (3.4.1, 1.4). Byte mutation of a
/// good frame rarely reaches an attribute parser with a body of the right length but odd
/// content; these do, for every attribute and element ID the decoder types.
struct RandomFrameBuilder {
    var generator: SeededGenerator
    let frames: [[UInt8]]

    /// Attribute IDs with a typed body (NANAttribute), plus a few it keeps raw.
    static let attributeIDs: [UInt8] = [
        0x00, 0x01, 0x02, 0x03, 0x0E, 0x0F, 0x10, 0x12, 0x13, 0x14, 0x15, 0x17, 0x1D, 0x22, 0x23, 0x24, 0x28, 0x29,
        0x2A, 0x2B, 0x2C, 0xDD, 0x04, 0x1F,
    ]

    private mutating func random(_ bound: Int) -> Int { Int(generator.next() % UInt64(max(1, bound))) }

    private mutating func octets(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }

    /// A body of `count` octets: random, or cut from a corpus frame so that real field
    /// values (MACs, service IDs, control fields) show up at random offsets.
    private mutating func body(_ count: Int) -> [UInt8] {
        if random(2) == 0 { return octets(count) }
        let source = frames[random(frames.count)]
        guard source.count > count else { return octets(count) }
        let start = random(source.count - count)
        return Array(source[start..<(start + count)])
    }

    private mutating func length() -> Int {
        switch random(10) {
        case 0: 0
        case 1..<7: random(24)
        case 7..<9: 24 + random(64)
        default: 250 + random(12)
        }
    }

    mutating func attributes() -> [UInt8] {
        var writer = WireWriter(capacity: 128)
        for _ in 0..<(1 + random(5)) {
            let id =
                random(10) == 0
                ? UInt8(truncatingIfNeeded: generator.next()) : Self.attributeIDs[random(Self.attributeIDs.count)]
            let body = body(length())
            writer.write(id)
            writer.writeUInt16LE(UInt16(body.count))
            writer.write(body)
        }
        return writer.bytes
    }

    mutating func elements() -> [UInt8] {
        var writer = WireWriter(capacity: 128)
        for _ in 0..<(1 + random(5)) {
            var (id, information): (UInt8, [UInt8])
            switch random(9) {
            case 0: (id, information) = (48, body(min(255, length())))
            case 1: (id, information) = (244, body(1 + random(4)))
            case 2: (id, information) = (140, body([16, 24, random(30)][random(3)]))
            case 3: (id, information) = (255, [8] + body(length()))
            case 4: (id, information) = (255, [100] + body(random(40)))
            case 5: (id, information) = (255, [161] + body(random(8)))
            case 6: (id, information) = (221, NANElement.vendorPrefix + attributes())
            case 7: (id, information) = (242, body(random(20)))
            default: (id, information) = (UInt8(truncatingIfNeeded: generator.next()), body(length()))
            }
            if random(8) == 0 { information = Array(information.prefix(max(0, information.count - 1 - random(3)))) }
            ElementFragments.write(id: id, information: information, to: &writer)
        }
        return writer.bytes
    }

    /// One frame: an SDF, a NAF, a PASN Authentication frame or a beacon.
    mutating func frame() -> [UInt8] {
        var writer = WireWriter(capacity: 256)
        let shape = random(4)
        let subtype: ManagementSubtype = [.action, .action, .authentication, .beacon][shape]
        ManagementHeader(
            frameControl: .management(subtype),
            address1: FrameCorpus.accessory,
            address2: FrameCorpus.phone,
            address3: .nanNetworkID,
            sequenceControl: SequenceControl(rawValue: UInt16(truncatingIfNeeded: generator.next()))
        ).write(to: &writer)
        switch shape {
        case 0:
            writer.write([random(2) == 0 ? 4 : 9, 9, 0x50, 0x6F, 0x9A, ServiceDiscoveryFrame.ouiType])
            writer.write(attributes())
        case 1:
            writer.write([random(2) == 0 ? 4 : 9, 9, 0x50, 0x6F, 0x9A, NANActionFrame.ouiType, UInt8(random(16))])
            writer.write(attributes())
        case 2:
            writer.write([7, 0, UInt8(1 + random(3)), 0, UInt8(random(2) == 0 ? 0 : random(256)), 0])
            writer.write(elements())
        default:
            writer.write(octets(8))
            writer.writeUInt16LE(random(2) == 0 ? NANBeacon.syncBeaconInterval : NANBeacon.discoveryBeaconInterval)
            writer.writeUInt16LE(0x0420)
            writer.write(elements())
        }
        return writer.bytes
    }
}
