import AwareRadio
import AwareWire

/// The kinds of frame a fault plan names, in the protocol's own words. A frame can be of
/// several kinds at once: a Publish SDF is `sdf` and `publish`, PASN frame 2 is `pasn` and
/// `pasn-2`.
public enum FaultFrameKind: String, CaseIterable, Hashable, Sendable {
    case any
    case beacon
    /// Service Discovery Frames (nan-wire-reference.md 1.1), by the type of their first SDA.
    case sdf
    case publish
    case subscribe
    case followUp = "follow-up"
    /// NAN Action Frames (nan-wire-reference.md 1.1, 1.2), and each subtype the bench uses.
    case naf
    case dataPathRequest = "ndp-request"
    case dataPathResponse = "ndp-response"
    case dataPathConfirm = "ndp-confirm"
    case dataPathKeyInstallment = "ndp-key-install"
    case dataPathTermination = "ndp-termination"
    case scheduleRequest = "schedule-request"
    case scheduleResponse = "schedule-response"
    case scheduleConfirm = "schedule-confirm"
    case scheduleUpdate = "schedule-update"
    /// PASN Authentication frames (IEEE 802.11-2020 12.13), by transaction sequence number.
    case pasn
    case pasn1 = "pasn-1"
    case pasn2 = "pasn-2"
    case pasn3 = "pasn-3"
    /// Management frames with the Protected bit (follow-ups and NAFs between paired devices).
    case protected
    /// Data frames (QoS Data on a data path).
    case data

    /// The kinds `frame` is of; empty for a frame too short to have a Frame Control field.
    ///
    /// Read from the octets that say it (Frame Control, the action header, the SDA's Service
    /// Control, the Authentication algorithm and sequence), not from a full decode, so a frame
    /// whose later fields are malformed (or corrupted by another step) still has its kind.
    public static func kinds(of frame: [UInt8]) -> Set<FaultFrameKind> {
        guard frame.count >= 2 else { return [] }
        var kinds: Set<FaultFrameKind> = [.any]
        // Frame Control: type in bits 2-3, subtype in bits 4-7 (IEEE 802.11-2020 9.2.4.1.3).
        let type = (frame[0] >> 2) & 0x03
        let subtype = frame[0] >> 4
        if type == 2 {
            kinds.insert(.data)
            return kinds
        }
        guard type == 0, frame.count > 24 else { return kinds }
        if frame[1] & 0x40 != 0 {
            kinds.insert(.protected)
            return kinds
        }
        switch subtype {
        case 8 where Self.carriesNANElement(frame, from: 36):
            kinds.insert(.beacon)
        case 11 where frame.count >= 30 && frame[24] == 7 && frame[25] == 0:
            // PASN: Authentication Algorithm 7; Transaction Sequence 1, 2 or 3.
            kinds.insert(.pasn)
            switch UInt16(frame[26]) | UInt16(frame[27]) << 8 {
            case 1: kinds.insert(.pasn1)
            case 2: kinds.insert(.pasn2)
            case 3: kinds.insert(.pasn3)
            default: break
            }
        case 13, 14:
            // Action (No Ack): Category 4 (Public), Action 9 (vendor specific), OUI 50-6F-9A.
            let wfa =
                frame.count >= 30 && frame[24] == 4 && frame[25] == 9 && frame[26] == 0x50 && frame[27] == 0x6F
                && frame[28] == 0x9A
            if wfa, frame[29] == 0x13 {
                kinds.insert(.sdf)
                // SDA Service Control, octet 8 of its body: bits 0-1 the type (nan-wire-reference.md 2.4).
                for body in FaultField.attributeBodies(of: 0x03, in: frame, list: 30..<frame.count)
                where body.count >= 9 {
                    switch frame[body.lowerBound + 8] & 0x03 {
                    case 0: kinds.insert(.publish)
                    case 1: kinds.insert(.subscribe)
                    case 2: kinds.insert(.followUp)
                    default: break
                    }
                }
            } else if wfa, frame[29] == 0x18, frame.count >= 31 {
                kinds.insert(.naf)
                if let kind = Self.kind(of: NAFSubtype(rawValue: frame[30])) { kinds.insert(kind) }
            }
        default:
            break
        }
        return kinds
    }

    private static func carriesNANElement(_ frame: [UInt8], from start: Int) -> Bool {
        FaultField.elements(in: frame, from: start).contains { element in
            element.id == 221 && element.body.count >= 4
                && Array(frame[element.body.lowerBound..<element.body.lowerBound + 4]) == [0x50, 0x6F, 0x9A, 0x13]
        }
    }

    private static func kind(of subtype: NAFSubtype) -> FaultFrameKind? {
        switch subtype {
        case .dataPathRequest: .dataPathRequest
        case .dataPathResponse: .dataPathResponse
        case .dataPathConfirm: .dataPathConfirm
        case .dataPathKeyInstallment: .dataPathKeyInstallment
        case .dataPathTermination: .dataPathTermination
        case .scheduleRequest: .scheduleRequest
        case .scheduleResponse: .scheduleResponse
        case .scheduleConfirm: .scheduleConfirm
        case .scheduleUpdateNotification: .scheduleUpdate
        default: nil
        }
    }
}

/// Whose frames a fault step takes: the phone's (the stations the runner attached), the
/// accessory's (everything else: on a shared air, the frames of other processes), or both.
public enum FaultFrameSender: String, CaseIterable, Hashable, Sendable {
    case phone
    case accessory
    case any

    func includes(_ origin: FrameOrigin, phoneStations: Set<String>) -> Bool {
        switch self {
        case .any: return true
        case .phone:
            if case .local(let name) = origin { return phoneStations.contains(name) }
            return false
        case .accessory:
            if case .local(let name) = origin { return !phoneStations.contains(name) }
            return true
        }
    }
}

/// Which frames a step acts on: the `nth` frame (1-based; nil: every one) of a kind from a
/// sender. Frames are counted as their senders hand them to the air: the air's own
/// retransmissions of a frame are the same frame, not the next one.
public struct FaultFrameSelector: Hashable, Sendable {
    public var kind: FaultFrameKind
    public var sender: FaultFrameSender
    public var nth: Int?

    public init(kind: FaultFrameKind, sender: FaultFrameSender = .any, nth: Int? = 1) {
        self.kind = kind
        self.sender = sender
        self.nth = nth
    }
}
