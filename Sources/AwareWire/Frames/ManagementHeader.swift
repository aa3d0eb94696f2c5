import AwareCore

/// The MAC header of a management frame (IEEE 802.11-2020 9.3.3.2): Frame Control,
/// Duration (LE16), A1, A2, A3, Sequence Control — 24 octets — followed by a 4-octet HT
/// Control field only when the +HTC/Order bit is set.
///
/// A1 is the receiver/destination, A2 the transmitter (own NMI), A3 the BSSID slot, which
/// NAN fills with the Cluster ID or the NAN Network ID (nan-wire-reference.md 1.3).
public struct ManagementHeader: Hashable, Sendable, WireCodable, WireDescribable {
    public var frameControl: FrameControl
    /// Duration/ID in microseconds (0 in every hostap frame; a driver fills it in).
    public var duration: UInt16
    public var address1: MACAddress
    public var address2: MACAddress
    public var address3: MACAddress
    public var sequenceControl: SequenceControl
    /// Present exactly when `frameControl.htcOrder` is set.
    public var htControl: UInt32?

    /// Octets of the header without HT Control.
    public static let length = 24

    public init(
        frameControl: FrameControl,
        duration: UInt16 = 0,
        address1: MACAddress,
        address2: MACAddress,
        address3: MACAddress,
        sequenceControl: SequenceControl = SequenceControl(rawValue: 0),
        htControl: UInt32? = nil
    ) {
        self.frameControl = frameControl
        self.duration = duration
        self.address1 = address1
        self.address2 = address2
        self.address3 = address3
        self.sequenceControl = sequenceControl
        self.htControl = htControl
    }

    /// Receiver address (A1).
    public var receiver: MACAddress { address1 }
    /// Transmitter address (A2).
    public var transmitter: MACAddress { address2 }

    public init(from reader: inout WireReader) throws(WireError) {
        frameControl = try FrameControl(from: &reader)
        duration = try reader.readUInt16LE("Duration")
        address1 = try reader.readMAC("Address 1")
        address2 = try reader.readMAC("Address 2")
        address3 = try reader.readMAC("Address 3")
        sequenceControl = try SequenceControl(from: &reader)
        htControl = frameControl.htcOrder ? try reader.readUInt32LE("HT Control") : nil
    }

    public func write(to writer: inout WireWriter) {
        frameControl.write(to: &writer)
        writer.writeUInt16LE(duration)
        writer.write(address1)
        writer.write(address2)
        writer.write(address3)
        sequenceControl.write(to: &writer)
        if let htControl { writer.writeUInt32LE(htControl) }
    }

    public var decodedFields: [DecodedField] {
        var fields = [
            DecodedField("frameControl", "Frame Control", .fields(frameControl.decodedFields)),
            DecodedField("duration", "Duration", .unsigned(UInt64(duration))),
            DecodedField("address1", "Receiver Address (A1)", .address(address1)),
            DecodedField("address2", "Transmitter Address (A2)", .address(address2)),
            DecodedField("address3", "BSSID / Cluster ID (A3)", .address(address3)),
            DecodedField("sequenceControl", "Sequence Control", .fields(sequenceControl.decodedFields)),
        ]
        if let htControl {
            fields.append(DecodedField("htControl", "HT Control", .bits(UInt64(htControl), digits: 8)))
        }
        return fields
    }
}
