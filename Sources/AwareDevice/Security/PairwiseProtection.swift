import AwareCore
import AwareCrypto
import AwareWire

/// The NM-TK security associations of a device with its paired peers, and what they do to
/// frames at the edge (nan-wire-reference.md 3.8): unicast SDFs and NAFs to a paired peer go
/// out as category 9 and CCMP/GCMP-protected; protected frames from it are checked and opened;
/// an unprotected unicast SDF or NAF from it is dropped. PASN Authentication frames stay
/// unprotected: they are how a pair re-keys.
public struct PairwiseProtection: Sendable {
    struct Association: Sendable {
        let key: [UInt8]
        let cipher: PASNCipher
        var nextPacketNumber: UInt64 = 1
        var replay = ReplayCounter()
    }

    public struct Counters: Hashable, Sendable {
        public var protectedSent = 0
        public var protectedReceived = 0
        /// Unprotected unicast SDFs/NAFs from a paired peer, dropped.
        public var unprotectedDropped = 0
        /// Protected frames whose MIC did not verify, or from a peer we hold no key for.
        public var authenticationFailures = 0
        /// Protected frames with a packet number not above the last one accepted.
        public var replaysDropped = 0

        public init() {}
    }

    /// What becomes of a received frame.
    public enum Inbound: Hashable, Sendable {
        /// Hand these octets (the plaintext, when it was protected) to the machines.
        case deliver([UInt8])
        case drop(DropReason)
    }

    public enum DropReason: String, Hashable, Sendable {
        case unprotectedFromPairedPeer = "unprotected-from-paired-peer"
        case noKey = "no-key"
        case authenticationFailed = "authentication-failed"
        case replay = "replay"
    }

    var associations: [MACAddress: Association] = [:]
    public private(set) var counters = Counters()
    /// Fault injection: deliver unprotected unicast frames from paired peers anyway.
    public var acceptsUnprotectedFromPairedPeers = false
    /// Our own address: frames to other stations are none of our business (on a shared air a
    /// device overhears the protected frames of other pairs). nil judges every frame.
    public var ownAddress: MACAddress?

    public init(ownAddress: MACAddress? = nil) {
        self.ownAddress = ownAddress
    }

    public var pairedPeers: Set<MACAddress> { Set(associations.keys) }

    public func isPaired(_ peer: MACAddress) -> Bool { associations[peer] != nil }

    /// Installs (or replaces, after a new pairing or verification) the NM-TK for `peer`;
    /// packet numbers start again from 1.
    public mutating func install(peer: MACAddress, key: [UInt8], cipher: PASNCipher) {
        associations[peer] = Association(key: key, cipher: cipher)
    }

    public mutating func remove(peer: MACAddress) { associations[peer] = nil }

    /// The octets to put on the air for `frame`.
    public mutating func outbound(_ frame: [UInt8]) -> [UInt8] {
        guard let receiver = Self.unicastReceiver(of: frame), Self.isNANAction(frame),
            var association = associations[receiver]
        else { return frame }
        var plaintext = frame
        plaintext[ManagementHeader.length] = NANActionCategory.protectedDualOfPublicAction.rawValue
        do throws(FrameProtectionError) {
            let protected = try ManagementFrameProtection.protect(
                plaintext,
                key: association.key,
                cipher: association.cipher,
                packetNumber: association.nextPacketNumber
            )
            association.nextPacketNumber += 1
            associations[receiver] = association
            counters.protectedSent += 1
            return protected
        } catch {
            // Only an exhausted packet number space lands here (2^48 frames): send nothing
            // rather than send in the clear.
            return []
        }
    }

    /// What to do with `frame` as heard from the air.
    public mutating func inbound(_ frame: [UInt8]) -> Inbound {
        guard frame.count >= ManagementHeader.length else { return .deliver(frame) }
        let frameControl = FrameControl(rawValue: UInt16(frame[0]) | UInt16(frame[1]) << 8)
        guard frameControl.type == .management else { return .deliver(frame) }
        let transmitter = MACAddress(frame[10..<16]) ?? MACAddress(0, 0, 0, 0, 0, 0)
        if let ownAddress, let receiver = Self.unicastReceiver(of: frame), receiver != ownAddress {
            return .deliver(frame)
        }
        if frameControl.isProtected {
            guard var association = associations[transmitter] else {
                counters.authenticationFailures += 1
                return .drop(.noKey)
            }
            do throws(FrameProtectionError) {
                let opened = try ManagementFrameProtection.unprotect(
                    frame,
                    key: association.key,
                    cipher: association.cipher
                )
                guard association.replay.accept(opened.packetNumber) else {
                    counters.replaysDropped += 1
                    return .drop(.replay)
                }
                associations[transmitter] = association
                counters.protectedReceived += 1
                return .deliver(opened.frame)
            } catch {
                counters.authenticationFailures += 1
                return .drop(.authenticationFailed)
            }
        }
        if associations[transmitter] != nil, Self.unicastReceiver(of: frame) != nil, Self.isNANAction(frame),
            !acceptsUnprotectedFromPairedPeers
        {
            counters.unprotectedDropped += 1
            return .drop(.unprotectedFromPairedPeer)
        }
        return .deliver(frame)
    }

    /// A1 when it is an individual address.
    static func unicastReceiver(of frame: [UInt8]) -> MACAddress? {
        guard frame.count >= ManagementHeader.length, let receiver = MACAddress(frame[4..<10]), !receiver.isGroup
        else { return nil }
        return receiver
    }

    /// An Action frame (subtype 13) whose body is an SDF or NAF of category 4 or 9.
    static func isNANAction(_ frame: [UInt8]) -> Bool {
        let start = ManagementHeader.length
        guard frame.count >= start + 6, frame[0] & 0x0C == 0, frame[0] >> 4 == 13 else { return false }
        let category = frame[start]
        return (category == 4 || category == 9) && frame[start + 1] == 9
            && frame[(start + 2)..<(start + 5)].elementsEqual([0x50, 0x6F, 0x9A])
            && (frame[start + 5] == 0x13 || frame[start + 5] == 0x18)
    }
}
