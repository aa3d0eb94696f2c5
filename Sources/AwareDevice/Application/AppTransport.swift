import AwareCore
import AwareProtocol
import AwareRadio
import AwareWire

/// Carries the bench's application messages (``AppMessage``) over a device's data paths as UDP
/// over IPv6 link-local addresses, the way an app's `NetworkConnection` rides a Wi-Fi Aware data
/// path: the interface identifiers come from the NDP Extension attribute (nan-wire-reference.md
/// 2.10), the DSCP from the access category (RFC 8325), the frame's TID from the same category.
///
/// It is the bench's application protocol (docs/reference/profile-reference.md, `app.benchProtocol`);
/// standard traffic (neighbour discovery, echo, TCP) is the ``IPv6Host``'s.
///
/// Reliable delivery is the bench's own (``ReliableEndpoint``) over UDP, not TCP: it gives the
/// same in-order, retransmitted service to control messages and files with a state machine the
/// bench can drive under virtual time.
public final class AppTransport {
    /// The device's IPv6 host: it resolves the peer, adds the IPv6 and UDP headers and hands
    /// over every UDP datagram that arrives.
    public let host: IPv6Host
    /// Every message that arrives on an attached data path.
    public var receiveHandler: ((AppDatagram) -> Void)?
    /// UDP payloads that did not parse as an ``AppMessage`` (each also goes to
    /// ``rawReceiveHandler``).
    public private(set) var malformed = 0
    /// Off, no datagram is read as an ``AppMessage``: each goes to ``rawReceiveHandler`` as it
    /// came, for an application that does not speak the bench's protocol (`app.benchProtocol`).
    public var speaksBenchProtocol = true
    public var rawReceiveHandler: ((UDPDelivery) -> Void)?

    public init(host: IPv6Host) {
        self.host = host
        host.udpReceiver = { [unowned self] delivery in self.receive(delivery) }
    }

    /// Starts using `link` (``IPv6Host/attach(_:localInterfaceID:peerInterfaceID:)``).
    public func attach(_ link: DataLinkConfiguration, localInterfaceID: [UInt8]?, peerInterfaceID: [UInt8]?) {
        host.attach(link, localInterfaceID: localInterfaceID, peerInterfaceID: peerInterfaceID)
    }

    public func detach(_ link: DataLinkID) { host.detach(link) }

    public func peerAddress(of link: DataLinkID) -> IPv6Address? { host.peerAddress(of: link) }

    public var scheduler: any EventScheduler { host.scheduler }

    /// Now on the clock every station of the air shares: what application messages are stamped
    /// with, so that one-way latency can be taken between processes
    /// (``EventScheduler/sharedTimestamp(of:)``). The application machines' drivers run on it
    /// too (``MachineDriver/Clock/shared``).
    public var sharedNow: Instant { Instant(nanoseconds: scheduler.sharedTimestamp(of: host.now)) }

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
        host.sendUDP(
            message.wireBytes,
            on: link,
            sourcePort: sourcePort,
            destinationPort: destinationPort,
            category: category,
            deadline: deadline
        )
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
        host.udpFrameBody(
            message.wireBytes,
            on: link,
            sourcePort: sourcePort,
            destinationPort: destinationPort,
            category: category
        )
    }

    /// A UDP datagram the host received.
    private func receive(_ delivery: UDPDelivery) {
        let packet = delivery.packet
        guard speaksBenchProtocol else {
            rawReceiveHandler?(delivery)
            return
        }
        guard let message = try? AppMessage(wireBytes: packet.payload, structure: "Application message") else {
            // Not the bench's: an application's own datagram (a device's plain telemetry).
            malformed += 1
            rawReceiveHandler?(delivery)
            return
        }
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
