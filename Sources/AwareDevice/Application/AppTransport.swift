import AwareCore
import AwareProtocol
import AwareRadio
import AwareWire

/// Carries the bench's application messages (``AppMessage``) over a device's data paths as UDP
/// over IPv6 link-local addresses, the way an app's `NetworkConnection` rides a Wi-Fi Aware data
/// path: the interface identifiers come from the NDP Extension attribute (nan-wire-reference.md
/// 2.10), the DSCP from the access category (RFC 8325), the frame's TID from the same category.
///
/// Reliable delivery is the bench's own (``ReliableEndpoint``) over UDP, not TCP: it gives the
/// same in-order, retransmitted service to control messages and files with a state machine the
/// bench can drive under virtual time.
public final class AppTransport: DataReceiver {
    struct Addressing {
        var local: IPv6Address
        var peer: IPv6Address
    }

    private unowned let device: NANDevice
    private var addressing: [DataLinkID: Addressing] = [:]
    /// Every message that arrives on an attached data path.
    public var receiveHandler: ((AppDatagram) -> Void)?
    /// Octets of UDP payload that did not parse as an ``AppMessage`` or as UDP over IPv6.
    public private(set) var malformed = 0

    public init(device: NANDevice) {
        self.device = device
        device.dataReceiver = self
    }

    /// Starts using `link`: own address from `localInterfaceID`, the peer's from what its NDPE
    /// carried, or from its NDI (modified EUI-64, RFC 4291 appendix A) when it carried none.
    public func attach(_ link: DataLinkConfiguration, localInterfaceID: [UInt8]?, peerInterfaceID: [UInt8]?) {
        let local =
            localInterfaceID.flatMap { IPv6Address.linkLocal(interfaceIdentifier: $0) }
            ?? IPv6Address.linkLocal(of: link.localNDI)
        let peer =
            peerInterfaceID.flatMap { IPv6Address.linkLocal(interfaceIdentifier: $0) }
            ?? IPv6Address.linkLocal(of: link.peerNDI)
        addressing[link.id] = Addressing(local: local, peer: peer)
    }

    public func detach(_ link: DataLinkID) { addressing[link] = nil }

    public func peerAddress(of link: DataLinkID) -> IPv6Address? { addressing[link]?.peer }

    public var scheduler: any EventScheduler { device.scheduler }

    /// Now on the clock every station of the air shares: what application messages are stamped
    /// with, so that one-way latency can be taken between processes
    /// (``EventScheduler/sharedTimestamp(of:)``). The application machines' drivers run on it
    /// too (``MachineDriver/Clock/shared``).
    public var sharedNow: Instant { Instant(nanoseconds: device.scheduler.sharedTimestamp(of: device.now)) }

    /// Sends `message` to the peer's `destinationPort`. Returns false when the link is not
    /// attached or its queue is full.
    @discardableResult
    public func send(
        _ message: AppMessage,
        on link: DataLinkID,
        sourcePort: UInt16,
        destinationPort: UInt16,
        category: AccessCategory,
        deadline: Instant? = nil
    ) -> Bool {
        guard
            let msdu = msdu(
                message,
                on: link,
                sourcePort: sourcePort,
                destinationPort: destinationPort,
                category: category
            )
        else { return false }
        return device.sendData(msdu, on: link, category: category, deadline: deadline)
    }

    /// `message` as the data frame body that carries it to the peer's `destinationPort`
    /// (LLC/SNAP, IPv6, UDP); nil when the link is not attached.
    public func msdu(
        _ message: AppMessage,
        on link: DataLinkID,
        sourcePort: UInt16,
        destinationPort: UInt16,
        category: AccessCategory
    ) -> [UInt8]? {
        guard let addresses = addressing[link] else { return nil }
        let packet = IPv6UDPPacket(
            trafficClass: DSCP(userPriority: category.tid).trafficClass,
            source: addresses.local,
            destination: addresses.peer,
            sourcePort: sourcePort,
            destinationPort: destinationPort,
            payload: message.wireBytes
        )
        return LLCSNAPHeader.ipv6.wireBytes + packet.wireBytes
    }

    /// An MSDU that arrived on one of the device's data paths.
    public func receive(_ delivery: DataDelivery) {
        guard let addresses = addressing[delivery.link] else { return }
        var reader = WireReader(delivery.payload, structure: "data frame body")
        do throws(WireError) {
            let llc = try LLCSNAPHeader(from: &reader)
            guard llc.etherType == LLCSNAPHeader.etherTypeIPv6 else { return }
            let rest = try reader.readBytes(reader.remaining, "IPv6 packet")
            let packet = try IPv6UDPPacket(wireBytes: rest, structure: IPv6UDPPacket.structureName)
            guard packet.destination == addresses.local else { return }
            let message = try AppMessage(wireBytes: packet.payload, structure: "Application message")
            receiveHandler?(
                AppDatagram(
                    link: delivery.link,
                    sourcePort: packet.sourcePort,
                    destinationPort: packet.destinationPort,
                    message: message,
                    tid: delivery.tid,
                    info: delivery.info
                )
            )
        } catch {
            malformed += 1
        }
    }
}

// MARK: - AppDatagram

/// One application message that arrived on a data path, with where it came from.
public struct AppDatagram: Hashable, Sendable {
    public var link: DataLinkID
    public var sourcePort: UInt16
    public var destinationPort: UInt16
    public var message: AppMessage
    /// The TID of the QoS data frame that carried it: the sender's access category.
    public var tid: UInt8
    public var info: RxInfo
}

// MARK: - AppPorts

/// The UDP ports of the bench's application traffic. The accessory listens on the port its
/// profile gives each service (`datapath.port`); the phone's app sends from, and receives on,
/// one ephemeral port, the first of the dynamic range (RFC 6335 6).
public enum AppPorts {
    public static let phone: UInt16 = 49_152
    /// An accessory service without a port in its profile.
    public static let defaultService: UInt16 = 7_000
}
