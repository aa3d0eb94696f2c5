import AwareCore
import AwareWire

/// One frame of a capture as the analyzer sees it: its number, when and where it was heard,
/// its octets (802.11 from Frame Control, FCS removed) and what they parse to.
public struct CaptureFrame: Sendable {
    /// 1-based, as Wireshark numbers frames.
    public var number: Int
    /// Capture time, nanoseconds since the Unix epoch.
    public var timestamp: UInt64
    /// The radio's MAC timestamp (radiotap TSFT, µs), when the capture has one.
    public var macTimestamp: UInt64?
    /// Channel frequency from radiotap, when the capture has it.
    public var frequencyMHz: UInt16?
    public var octets: [UInt8]
    public var condition: CaptureFrameCondition
    /// The parse result; nil when the frame was skipped (see ``condition``).
    public private(set) var parsed: Result<IEEE80211Frame, WireError>?
    /// The QoS Data frame, when this is one (parsed once: several rules read it).
    public private(set) var dataFrame: QoSDataFrame? = nil
    /// The frame repeats the previous frame of its transmitter (Retry bit set, same sequence
    /// control): a sniffer hears every retransmission, the receiver acts on one. The analyzer
    /// sets it (``RetransmissionTracker``).
    public var isRetransmission = false

    /// Reads a capture record. Link type 105 says nothing about the FCS (Wireshark has a
    /// preference for it): when a frame does not parse as it is but does without its last four
    /// octets, and those octets are the CRC-32 of the rest (IEEE 802.11-2020 9.2.4.8), they
    /// are taken as the FCS.
    public init(number: Int, record: CaptureRecord) {
        self.number = number
        timestamp = record.timestamp
        macTimestamp = record.radiotap?.tsft
        frequencyMHz = record.frequencyMHz
        if let original = record.originalLength {
            octets = record.frame
            condition = .truncated(captured: record.frame.count, original: original)
            parsed = nil
            return
        }
        if let fcs = record.frameCheckSequence {
            let badFlag = record.radiotap?.flags?.badFCS == true
            if badFlag || !Self.fcsMatches(frame: record.frame, fcs: fcs) {
                octets = record.frame
                condition = .badFCS
                parsed = nil
                return
            }
        } else if record.radiotap?.flags?.badFCS == true {
            octets = record.frame
            condition = .badFCS
            parsed = nil
            return
        }
        condition = .whole
        let whole = Self.parse(record.frame)
        if case .failure = whole, record.frameCheckSequence == nil, record.frame.count > ManagementHeader.length + 4 {
            let body = Array(record.frame.dropLast(4))
            if Self.fcsMatches(frame: body, fcs: Array(record.frame.suffix(4))),
                case .success(let frame) = Self.parse(body)
            {
                octets = body
                parsed = .success(frame)
                dataFrame = Self.qosData(parsed)
                return
            }
        }
        octets = record.frame
        parsed = whole
        dataFrame = Self.qosData(parsed)
    }

    /// A frame given directly (tests, one frame as hex).
    public init(number: Int, timestamp: UInt64, frequencyMHz: UInt16? = nil, octets: [UInt8]) {
        self.number = number
        self.timestamp = timestamp
        macTimestamp = nil
        self.frequencyMHz = frequencyMHz
        self.octets = octets
        condition = .whole
        parsed = Self.parse(octets)
        dataFrame = Self.qosData(parsed)
    }

    private static func parse(_ octets: [UInt8]) -> Result<IEEE80211Frame, WireError> {
        do {
            return .success(try IEEE80211Frame(bytes: octets))
        } catch {
            return .failure(error)
        }
    }

    /// The FCS is the CRC-32 of the frame, sent least significant octet first.
    static func fcsMatches(frame: [UInt8], fcs: [UInt8]) -> Bool {
        guard fcs.count == 4 else { return false }
        let value = UInt32(fcs[0]) | UInt32(fcs[1]) << 8 | UInt32(fcs[2]) << 16 | UInt32(fcs[3]) << 24
        return CRC32.checksum(frame) == value
    }

    /// Whether a rule should judge the frame: whole, parsed, and not a retransmission of the one
    /// before.
    public var isJudged: Bool { condition == .whole && frame != nil && !isRetransmission }

    /// The parsed frame, when it parsed.
    public var frame: IEEE80211Frame? {
        if case .success(let frame)? = parsed { return frame }
        return nil
    }

    /// The management frame, when it is one and parsed.
    public var management: ManagementFrame? { frame?.managementFrame }

    /// The SDF, when this is an unprotected Service Discovery Frame.
    public var serviceDiscovery: ServiceDiscoveryFrame? {
        if case .serviceDiscovery(let sdf)? = management?.body { return sdf }
        return nil
    }

    /// The transmitter (A2) of a management or data frame.
    public var transmitter: MACAddress? {
        if let management { return management.header.address2 }
        return dataFrame?.address2
    }

    /// Address 2 read straight from the octets (802.11 header octets 10-15), for frames that
    /// did not parse or were skipped; nil when the frame is too short to have one.
    public var rawTransmitter: MACAddress? {
        guard octets.count >= 16 else { return nil }
        return MACAddress(octets[10..<16])
    }

    private static func qosData(_ parsed: Result<IEEE80211Frame, WireError>?) -> QoSDataFrame? {
        guard case .success(let frame)? = parsed else { return nil }
        return try? frame.qosDataFrame()
    }

    /// Time in microseconds on the capturing radio's clock: the MAC timestamp when radiotap
    /// has one, else the capture time.
    public var microseconds: UInt64 { macTimestamp ?? timestamp / 1_000 }
}

/// Tells retransmissions apart, frame by frame in capture order: a frame with the Retry bit set
/// and the same sequence control as its transmitter's previous frame. Keeps one sequence number
/// per transmitter.
public struct RetransmissionTracker: Sendable {
    private var last: [MACAddress: UInt16] = [:]

    public init() {}

    /// Sets `frame`'s ``CaptureFrame/isRetransmission``.
    public mutating func mark(_ frame: inout CaptureFrame) {
        let fields: (retry: Bool, transmitter: MACAddress, sequence: UInt16)
        if let header = frame.management?.header {
            fields = (header.frameControl.retry, header.address2, header.sequenceControl.rawValue)
        } else if let data = frame.dataFrame {
            fields = (data.frameControl.retry, data.address2, data.sequenceControl.rawValue)
        } else {
            return
        }
        frame.isRetransmission = fields.retry && last[fields.transmitter] == fields.sequence
        last[fields.transmitter] = fields.sequence
    }
}

/// Whether a captured frame can be judged at all. A sniffer records what it heard, not what
/// was sent: a frame cut short by the snap length, or one whose FCS shows it was received
/// corrupted, says nothing about the transmitter and is skipped (reported as `info`).
public enum CaptureFrameCondition: Hashable, Sendable {
    /// The whole frame, its FCS (if the capture kept one) correct or absent.
    case whole
    /// The capture kept `captured` of the `original` octets of the packet (incl_len < orig_len).
    case truncated(captured: Int, original: Int)
    /// The radio flagged a bad FCS, or the FCS the capture kept does not match the frame.
    case badFCS
}
