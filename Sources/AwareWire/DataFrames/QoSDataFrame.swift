import AwareCore

/// A QoS Data frame (IEEE 802.11-2020 9.3.2.1): the frame that carries a NAN Data Path's
/// application traffic between two NDIs.
///
/// Frame Control (Type 2 Data, Subtype 8 QoS Data: `88 00`, `88 40` when protected),
/// Duration (LE16), A1, A2, A3, Sequence Control, QoS Control (LE16), HT Control (4 octets,
/// only when +HTC/Order is set), then the body: an LLC/SNAP-encapsulated MSDU in clear, or
/// the CCMP/GCMP header, ciphertext and MIC when Protected is set. No FCS.
///
/// On a NAN data link To DS = From DS = 0, A1 = the peer's NDI (receiver), A2 = the own
/// NDI (transmitter), and A3 = the BSSID field. What NAN puts in A3 of data frames is not
/// confirmed from a primary source: nan-wire-reference.md 4.1 and 3.8 give A3 = Cluster ID
/// for the NAFs of a data path, and Linux mac80211's NAN receive filter matches A3 against
/// the Cluster ID for NAN management frames; this type follows that and names A3 the
/// Cluster ID, but parses any A3 as sent. Frames with both To DS and From DS set carry a
/// fourth address, a layout this type refuses.
public struct QoSDataFrame: Hashable, Sendable, WireCodable, WireDescribable {
    public var frameControl: FrameControl
    /// Duration/ID in microseconds.
    public var duration: UInt16
    public var address1: MACAddress
    public var address2: MACAddress
    public var address3: MACAddress
    public var sequenceControl: SequenceControl
    public var qosControl: QoSControl
    /// Present exactly when `frameControl.htcOrder` is set.
    public var htControl: UInt32?
    /// The frame body as carried (ciphertext with its CCMP/GCMP header and MIC when protected).
    public var body: [UInt8]

    public static let structureName = "QoS Data frame"
    /// Subtype 8 of Type 2 (IEEE 802.11-2020 Table 9-1).
    public static let subtype: UInt8 = 8
    /// Octets before the body without HT Control: 24 + 2 (QoS Control).
    public static let headerLength = 26

    public init(
        frameControl: FrameControl = .qosData(),
        duration: UInt16 = 0,
        address1: MACAddress,
        address2: MACAddress,
        address3: MACAddress,
        sequenceControl: SequenceControl = SequenceControl(rawValue: 0),
        qosControl: QoSControl,
        htControl: UInt32? = nil,
        body: [UInt8]
    ) {
        self.frameControl = frameControl
        self.duration = duration
        self.address1 = address1
        self.address2 = address2
        self.address3 = address3
        self.sequenceControl = sequenceControl
        self.qosControl = qosControl
        self.htControl = htControl
        self.body = body
    }

    /// A NAN data frame from the own NDI to the peer's NDI, A3 = Cluster ID.
    public init(
        receiver peerNDI: MACAddress,
        transmitter ownNDI: MACAddress,
        clusterID: MACAddress,
        sequenceControl: SequenceControl = SequenceControl(rawValue: 0),
        qosControl: QoSControl,
        body: [UInt8]
    ) {
        self.init(
            address1: peerNDI,
            address2: ownNDI,
            address3: clusterID,
            sequenceControl: sequenceControl,
            qosControl: qosControl,
            body: body
        )
    }

    /// Parses a whole frame (no FCS).
    public init(bytes: some Collection<UInt8>) throws(WireError) {
        try self.init(wireBytes: bytes, structure: Self.structureName)
    }

    /// Receiver address (A1): the peer's NDI.
    public var receiver: MACAddress { address1 }
    /// Transmitter address (A2): the own NDI.
    public var transmitter: MACAddress { address2 }
    /// A3, the BSSID field: the Cluster ID on a NAN data link.
    public var clusterID: MACAddress { address3 }
    /// The Protected Frame bit: the body is a CCMP/GCMP-protected MPDU body.
    public var isProtected: Bool {
        get { frameControl.isProtected }
        set { frameControl.isProtected = newValue }
    }
    public var tid: UInt8 { qosControl.tid }

    public init(from reader: inout WireReader) throws(WireError) {
        let start = reader.offset
        frameControl = try FrameControl(from: &reader)
        guard frameControl.type == .data, frameControl.subtype == Self.subtype else {
            throw reader.error(
                .invalidValue(
                    "Type \(frameControl.type.rawValue) Subtype \(frameControl.subtype) is not QoS Data (Type 2, Subtype 8)"
                ),
                field: "Frame Control",
                at: start
            )
        }
        guard !(frameControl.toDS && frameControl.fromDS) else {
            throw reader.error(
                .invalidValue("To DS and From DS both set: a four-address frame is not supported"),
                field: "Frame Control",
                at: start
            )
        }
        duration = try reader.readUInt16LE("Duration")
        address1 = try reader.readMAC("Address 1")
        address2 = try reader.readMAC("Address 2")
        address3 = try reader.readMAC("Address 3")
        sequenceControl = try SequenceControl(from: &reader)
        qosControl = try QoSControl(from: &reader)
        htControl = frameControl.htcOrder ? try reader.readUInt32LE("HT Control") : nil
        body = reader.readRemaining()
    }

    public func write(to writer: inout WireWriter) {
        frameControl.write(to: &writer)
        writer.writeUInt16LE(duration)
        writer.write(address1)
        writer.write(address2)
        writer.write(address3)
        sequenceControl.write(to: &writer)
        qosControl.write(to: &writer)
        if let htControl { writer.writeUInt32LE(htControl) }
        writer.write(body)
    }

    public var decodedFields: [DecodedField] {
        var fields = [
            DecodedField("frameControl", "Frame Control", .fields(frameControl.decodedFields)),
            DecodedField("duration", "Duration", .unsigned(UInt64(duration))),
            DecodedField("address1", "Receiver Address (A1, peer NDI)", .address(address1)),
            DecodedField("address2", "Transmitter Address (A2, own NDI)", .address(address2)),
            DecodedField("address3", "BSSID / Cluster ID (A3)", .address(address3)),
            DecodedField("sequenceControl", "Sequence Control", .fields(sequenceControl.decodedFields)),
            DecodedField("qosControl", "QoS Control", .fields(qosControl.decodedFields)),
        ]
        if let htControl {
            fields.append(DecodedField("htControl", "HT Control", .bits(UInt64(htControl), digits: 8)))
        }
        fields.append(DecodedField("frameBody", isProtected ? "Protected Frame Body" : "Frame Body", .bytes(body)))
        return fields
    }
}

extension FrameControl {
    /// A QoS Data frame's Frame Control, every flag clear but Protected when asked:
    /// `88 00` or `88 40`.
    public static func qosData(protected: Bool = false) -> FrameControl {
        FrameControl(
            rawValue: UInt16(QoSDataFrame.subtype) << 4 | UInt16(FrameType.data.rawValue) << 2
                | (protected ? 0x4000 : 0)
        )
    }
}

extension IEEE80211Frame {
    /// The frame as a QoS Data frame, when it is one (management parsing does not look at
    /// data frames; this is their entry point from a capture). Throws when the frame says it
    /// is QoS Data but its header is malformed.
    public func qosDataFrame() throws(WireError) -> QoSDataFrame? {
        guard case .notManagement(let frameControl, _) = self, frameControl.type == .data,
            frameControl.subtype == QoSDataFrame.subtype
        else { return nil }
        return try QoSDataFrame(bytes: wireBytes)
    }
}

/// The QoS Control field of a QoS Data frame (IEEE 802.11-2020 9.2.4.5), two octets,
/// little-endian: TID (b0-b3), EOSP (b4), Ack Policy (b5-b6), A-MSDU Present (b7), and an
/// upper octet (b8-b15) whose meaning depends on who sends the frame (TXOP Limit, TXOP
/// Duration Requested, Queue Size, AP PS Buffer State or Mesh Control bits).
///
/// Kept as the raw 16-bit value so the upper octet and every bit survive a round trip.
public struct QoSControl: Hashable, Sendable, WireCodable, WireDescribable {
    public var rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The Ack Policy sub-field (b5-b6; IEEE 802.11-2020 Table 9-11, for a frame that is not
    /// part of an A-MPDU).
    public enum AckPolicy: UInt8, Hashable, Sendable, CaseIterable {
        case normalAck = 0
        case noAck = 1
        case noExplicitAck = 2
        case blockAck = 3

        public var name: String {
            switch self {
            case .normalAck: "Normal Ack"
            case .noAck: "No Ack"
            case .noExplicitAck: "No Explicit Ack / PSMP Ack"
            case .blockAck: "Block Ack"
            }
        }
    }

    /// A QoS Control for `tid` (its low 4 bits), with the other sub-fields given and the
    /// upper octet zero.
    public init(tid: UInt8, ackPolicy: AckPolicy = .normalAck, eosp: Bool = false, amsduPresent: Bool = false) {
        rawValue =
            UInt16(tid & 0x0F) | (eosp ? 0x0010 : 0) | UInt16(ackPolicy.rawValue) << 5
            | (amsduPresent ? 0x0080 : 0)
    }

    /// The traffic identifier: for EDCA traffic, the 802.1D user priority 0-7.
    public var tid: UInt8 { UInt8(truncatingIfNeeded: rawValue & 0x000F) }
    /// End Of Service Period (b4).
    public var eosp: Bool { rawValue & 0x0010 != 0 }
    public var ackPolicy: AckPolicy {
        AckPolicy(rawValue: UInt8(truncatingIfNeeded: (rawValue >> 5) & 0x03)) ?? .normalAck
    }
    /// A-MSDU Present (b7): the body is an A-MSDU rather than one MSDU.
    public var amsduPresent: Bool { rawValue & 0x0080 != 0 }
    /// b8-b15, kept as sent.
    public var upperOctet: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 8) }

    public init(from reader: inout WireReader) throws(WireError) {
        rawValue = try reader.readUInt16LE("QoS Control")
    }

    public func write(to writer: inout WireWriter) { writer.writeUInt16LE(rawValue) }

    public var decodedFields: [DecodedField] {
        [
            DecodedField("qosControl", "QoS Control", .bits(UInt64(rawValue), digits: 4)),
            DecodedField("tid", "TID", .unsigned(UInt64(tid))),
            DecodedField("eosp", "EOSP", .flag(eosp)),
            DecodedField("ackPolicy", "Ack Policy", .named(UInt64(ackPolicy.rawValue), ackPolicy.name)),
            DecodedField("amsduPresent", "A-MSDU Present", .flag(amsduPresent)),
            DecodedField("upperOctet", "TXOP Limit / Queue Size (b8-b15)", .unsigned(UInt64(upperOctet))),
        ]
    }
}
