import AwareCore
import AwareWire

/// The pairings a capture shows, found from the PASN Authentication frames alone (a sniffer
/// sees no keys): frame 1 from the initiator, frame 2 with status 0 back, frame 3 with status
/// 0, all between the same two NMIs (nan-wire-reference.md 3.1, 3.4.1).
///
/// A pairing's keys (the NM-TK) also end where either device shows a new NIRA: the nonce is drawn
/// once per boot and kept until the NIK changes (3.3), so a new one means a restart, and a
/// restart loses the PTKSA (only NPK and NIK are cached for verification, 3.7).
///
/// Built frame by frame in capture order (``add(_:)``): what a frame shows depends only on the
/// frames before it, so the timeline is the same as if the whole capture had been read at once.
public struct PairingTimeline: Hashable, Sendable {
    public private(set) var pairings: [CompletedPairing] = []
    /// PASN exchanges started and not yet complete, by [initiator, responder].
    private var exchanges: [[MACAddress]: Exchange] = [:]
    /// The last NIRA each device showed.
    private var lastIdentity: [MACAddress: IdentityResolutionAttribute] = [:]

    private struct Exchange: Hashable, Sendable {
        var firstFrame: Int
        var isVerification: Bool
        var answered = false
    }

    public init() {}

    public init(frames: [CaptureFrame]) {
        for frame in frames { add(frame) }
    }

    /// Takes in the next frame of the capture.
    public mutating func add(_ frame: CaptureFrame) {
        guard let management = frame.management else { return }
        let transmitter = management.header.address2
        let receiver = management.header.address1
        if case .pasnAuthentication(let pasn) = management.body {
            switch pasn.transactionSequence {
            case 1:
                // A new PASN between the two ends the keys of the previous one.
                for index in pairings.indices
                where pairings[index].supersededAt == nil
                    && Set([pairings[index].initiator, pairings[index].responder]) == Set([transmitter, receiver])
                {
                    pairings[index].supersededAt = frame.number
                    pairings[index].supersededBySetup = pasn.wrappedData != nil
                }
                exchanges[[transmitter, receiver]] = Exchange(
                    firstFrame: frame.number,
                    isVerification: pasn.wrappedData == nil
                )
            case 2:
                if pasn.statusCode == 0 { exchanges[[receiver, transmitter]]?.answered = true }
            case 3:
                if pasn.statusCode == 0, let exchange = exchanges[[transmitter, receiver]], exchange.answered {
                    pairings.append(
                        CompletedPairing(
                            initiator: transmitter,
                            responder: receiver,
                            completedAt: frame.number,
                            isVerification: exchange.isVerification
                        )
                    )
                    exchanges[[transmitter, receiver]] = nil
                }
            default:
                break
            }
        }
        // A new NIRA of either device ends the keys of the pairings before this frame.
        for case .identityResolution(let nira) in AnalysisContext.attributes(of: management) {
            defer { lastIdentity[transmitter] = nira }
            guard let previous = lastIdentity[transmitter], previous != nira else { continue }
            for index in pairings.indices
            where pairings[index].completedAt < frame.number
                && (pairings[index].initiator == transmitter || pairings[index].responder == transmitter)
                && pairings[index].supersededAt.map({ frame.number < $0 }) ?? true
            {
                pairings[index].supersededAt = frame.number
                pairings[index].supersededBySetup = false
            }
        }
    }

    /// The pairing whose keys cover frame `number` between `a` and `b`, if any.
    public func pairing(between a: MACAddress, and b: MACAddress, at number: Int) -> CompletedPairing? {
        pairings.last { $0.covers(a, b, frame: number) }
    }
}

/// A PASN exchange the capture shows complete (frames 1, 2 with status 0, 3 with status 0;
/// nan-wire-reference.md 3.1, 3.4.1), and how long its keys stand: until the same two devices
/// start PASN again.
public struct CompletedPairing: Hashable, Sendable {
    /// The PASN initiator (the phone) and responder (the accessory), by NMI.
    public var initiator: MACAddress
    public var responder: MACAddress
    /// The frame number of PASN frame 3: from the next frame on the pair shares an NM-TK.
    public var completedAt: Int
    /// The frame that starts the next PASN between the two, when there is one.
    public var supersededAt: Int?
    /// That next PASN is a new setup (SAE in Wrapped Data), not a verification: the two paired
    /// from scratch, which they only do when at least one of them had lost the keys.
    public var supersededBySetup = false
    /// Verification with a cached NPK (no Wrapped Data in frame 1, 3.7) rather than setup.
    public var isVerification: Bool

    public init(
        initiator: MACAddress,
        responder: MACAddress,
        completedAt: Int,
        supersededAt: Int? = nil,
        isVerification: Bool
    ) {
        self.initiator = initiator
        self.responder = responder
        self.completedAt = completedAt
        self.supersededAt = supersededAt
        self.isVerification = isVerification
    }

    /// Whether frame `number` between `a` and `b` falls under this pairing's keys.
    public func covers(_ a: MACAddress, _ b: MACAddress, frame number: Int) -> Bool {
        let sameDevices = (a == initiator && b == responder) || (a == responder && b == initiator)
        return sameDevices && number > completedAt && supersededAt.map { number < $0 } ?? true
    }
}
