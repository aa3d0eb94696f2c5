import AwareCore
import AwareCrypto
import AwareDevice
import AwareProtocol
import AwareWire

/// What the phone asks for when it opens a data path, as an app's `NetworkConnection`
/// parameters do (apple-peer-model.md 1.7): a performance mode, a service class, and how the
/// path is secured.
public struct PhoneDataPathRequest: Hashable, Sendable {
    /// How the phone secures the data path.
    public enum Security: Hashable, Sendable {
        /// With the ND-PMK of the phone's pairing with the accessory (what an iPhone does).
        case paired
        /// No security: an iPhone never asks for this; the bench does, to check the refusal.
        case open
        /// A secured request with an ND-PMK the accessory cannot know: a phone that never paired.
        case unpaired
        /// NCS-SK with a shared key (non-Apple profiles).
        case sharedKey(NDPSecurity)
    }

    public var accessory: MACAddress
    public var publishID: UInt8
    public var serviceName: String
    public var mode: PerformanceMode
    public var serviceClass: ServiceClass
    public var security: Security
    /// The schedule the phone proposes; nil proposes the mode's own (``NDPSchedule/init(mode:channel:)``).
    public var proposal: NDPSchedule?
    /// How the proposal is laid out on the air; nil takes the phone's (``PhoneDataPaths/proposalShape``,
    /// the run's `--proposal-shape`).
    public var shape: NDPProposalShape?
    /// The accessory's application port for this service as its profile says (`datapath.port`).
    /// The phone's app connects to the port the accessory's Data Path Response names
    /// (``NDPLink/peerServiceInfo``), as an Android subscriber takes it from
    /// `WifiAwareNetworkInfo.getPort`; this one only stands in when the response names none and
    /// ``fallsBackToServicePort`` allows it.
    public var servicePort: UInt16
    /// Use ``servicePort`` when the response names no port. Off, such a data path comes up
    /// without an app session: the phone has nothing to connect to (WA/NDP/BV-12).
    public var fallsBackToServicePort: Bool
    /// The accessory's file-service port, when it has one.
    public var filePort: UInt16?
    /// An NDC to propose in the request (nan-wire-reference.md 2.8); nil lets the accessory
    /// select one, as hostap's initiator does.
    public var proposedNDC: NDCSchedule?

    public init(
        accessory: MACAddress,
        publishID: UInt8,
        serviceName: String,
        mode: PerformanceMode = .bulk,
        serviceClass: ServiceClass = .bestEffort,
        security: Security = .paired,
        proposal: NDPSchedule? = nil,
        shape: NDPProposalShape? = nil,
        servicePort: UInt16 = AppPorts.defaultService,
        fallsBackToServicePort: Bool = true,
        filePort: UInt16? = nil,
        proposedNDC: NDCSchedule? = nil
    ) {
        self.proposedNDC = proposedNDC
        self.servicePort = servicePort
        self.fallsBackToServicePort = fallsBackToServicePort
        self.filePort = filePort
        self.accessory = accessory
        self.publishID = publishID
        self.serviceName = serviceName
        self.mode = mode
        self.serviceClass = serviceClass
        self.security = security
        self.proposal = proposal
        self.shape = shape
    }
}
