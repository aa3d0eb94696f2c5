import AwareWire

/// What an outgoing frame becomes on the NAN function offload path
/// (``NL80211OffloadFrame/init(frame:)``): the roles build whole SDFs, the driver takes
/// functions, so each SDF is read back and translated at the radio's edge.
///
/// * A Publish (unsolicited, multicast; or solicited, unicast with a Requestor Instance ID)
///   becomes a publish function, a Subscribe a subscribe function: one per instance, kept
///   running by the driver (``NL80211Radio`` adds it once and re-adds it only when it changes).
/// * A Follow-up becomes a one-off follow-up function to its destination.
/// * A PASN Authentication frame stays a frame (`NL80211_CMD_FRAME` on the NAN device).
///
/// `lost` names what the frame carried that `enum nl80211_nan_func_attributes` has no room
/// for, so the operator sees what the peer will not receive.
public enum NL80211OffloadFrame: Hashable, Sendable {
    case function(instanceID: UInt8, NL80211NANFunction, lost: [String])
    case followUp(NL80211NANFunction, lost: [String])
    case authentication

    /// Reads `octets` (an 802.11 frame from frame control on, as a role hands it to the air).
    public init(frame octets: [UInt8]) throws(NL80211OffloadError) {
        let frame: IEEE80211Frame
        do {
            frame = try IEEE80211Frame(bytes: octets)
        } catch {
            throw .unreadableFrame(error)
        }
        guard let management = frame.managementFrame else { throw .notCarried(kind: "data or control frame") }
        switch management.body {
        case .pasnAuthentication:
            self = .authentication
        case .serviceDiscovery(let sdf):
            self = try Self.translate(sdf, header: management.header)
        default:
            throw .notCarried(kind: management.summary)
        }
    }

    private static func translate(
        _ sdf: ServiceDiscoveryFrame,
        header: ManagementHeader
    ) throws(NL80211OffloadError) -> NL80211OffloadFrame {
        let descriptors = sdf.attributes.compactMap { attribute -> ServiceDescriptorAttribute? in
            if case .serviceDescriptor(let sda) = attribute { return sda }
            return nil
        }
        guard descriptors.count == 1, let sda = descriptors.first else {
            throw .serviceDescriptorCount(descriptors.count)
        }
        var lost: [String] = []
        if sda.bindingBitmap != nil { lost.append("the SDA's Binding Bitmap") }
        if let srf = sda.serviceResponseFilter, srf.reservedControlBits != 0 {
            lost.append("the SRF Control's reserved bits")
        }
        let serviceInfo = try Self.serviceInfo(of: sda, in: sdf, lost: &lost)
        for attribute in sdf.attributes {
            switch attribute {
            case .serviceDescriptor, .serviceDescriptorExtension: continue
            case .pairingBootstrapping: lost.append("the NPBA (NAN Pairing Bootstrapping, 0x2C)")
            case .deviceCapabilityExtension: lost.append("the DCEA (Device Capability Extension, 0x2A)")
            default: lost.append("attribute \(attribute.id)")
            }
        }
        var function = NL80211NANFunction(
            kind: .subscribe(active: true),
            serviceID: sda.serviceID.octets,
            serviceInfo: serviceInfo,
            closeRange: sda.discoveryRangeLimited,
            transmitMatchFilter: sda.matchingFilter
        )
        switch sda.type {
        case .publish:
            // Multicast with no requestor: unsolicited. Unicast in answer to a subscriber:
            // solicited; the driver answers subscribers itself, to their own address.
            let solicited = !header.address1.isGroup && sda.requestorInstanceID != 0
            function.kind = .publish(solicited ? .solicited : .unsolicited, broadcast: false)
            // `NL80211_NAN_FUNC_SRF` applies to publish and subscribe functions alike.
            function.serviceResponseFilter = sda.serviceResponseFilter
        case .subscribe:
            // The roles send a Subscribe only when they subscribe actively; a passive
            // subscribe sends nothing, so it never reaches the radio.
            function.kind = .subscribe(active: true)
            function.serviceResponseFilter = sda.serviceResponseFilter
        case .followUp:
            function.kind = .followUp(
                instanceID: sda.instanceID,
                requestorInstanceID: sda.requestorInstanceID,
                destination: header.address1
            )
            function.transmitMatchFilter = nil
            if sda.matchingFilter != nil { lost.append("the matching filter of a follow-up") }
            return .followUp(function, lost: lost)
        default:
            throw .reservedServiceControlType(instanceID: sda.instanceID)
        }
        return .function(instanceID: sda.instanceID, function, lost: lost)
    }

    /// `NL80211_NAN_FUNC_SERVICE_INFO` is the SDA's Service Info field. The roles put their
    /// service info in the SDEA instead (as hostap does); a function has no SDEA, so the SDEA's
    /// Service Info octets (OUI, Service Protocol Type, then e.g. the DNS-SD TXT record) go
    /// there, and the SDEA's control bits, range limit and update indicator are lost.
    private static func serviceInfo(
        of sda: ServiceDescriptorAttribute,
        in sdf: ServiceDiscoveryFrame,
        lost: inout [String]
    ) throws(NL80211OffloadError) -> [UInt8] {
        let extensions = sdf.attributes.compactMap { attribute -> ServiceDescriptorExtensionAttribute? in
            if case .serviceDescriptorExtension(let sdea) = attribute, sdea.instanceID == sda.instanceID { return sdea }
            return nil
        }
        var info = sda.serviceInfo ?? []
        if let sdea = extensions.first {
            if !sdea.control.isEmpty || sdea.rangeLimit != nil || sdea.serviceUpdateIndicator != nil {
                lost.append("the SDEA's control, range limit and service update indicator")
            }
            if let sdeaInfo = sdea.serviceInfo?.octets {
                if sda.serviceInfo == nil {
                    info = sdeaInfo
                    lost.append("the SDEA itself: its service info is sent as the SDA's service-specific info")
                } else {
                    lost.append("the SDEA's service info (the SDA carries service info of its own)")
                }
            }
        }
        if extensions.count > 1 { lost.append("\(extensions.count - 1) further SDEA(s)") }
        guard info.count <= NL80211Constants.nanServiceSpecificInfoMaxLength else {
            throw .serviceInfoTooLong(instanceID: sda.instanceID, octets: info.count)
        }
        return info
    }
}

// MARK: - NL80211OffloadError

/// Why a frame a role sent, or an event the kernel sent, could not be translated on the NAN
/// function offload path (``NL80211DiscoveryPath/functionOffload``). Each case says what was
/// met and where; none is fatal to the radio.
public enum NL80211OffloadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The outgoing octets are not an 802.11 frame AwareWire can read.
    case unreadableFrame(WireError)
    /// A frame a driver's discovery engine has no function for: NAN beacons (the driver
    /// synchronises itself), NAFs, protected frames, data frames. `kind` is the frame's name.
    case notCarried(kind: String)
    /// An SDF without a Service Descriptor attribute, or with several (a function is one
    /// service instance; the roles never send more than one).
    case serviceDescriptorCount(Int)
    /// A Service Descriptor whose Service Control type is reserved (3).
    case reservedServiceControlType(instanceID: UInt8)
    /// The service-specific info would exceed `NL80211_NAN_FUNC_SERVICE_SPEC_INFO_MAX_LEN`.
    case serviceInfoTooLong(instanceID: UInt8, octets: Int)
    /// A PASN Authentication frame on a wiphy that cannot send or receive Authentication
    /// frames on the NAN interface type; `missing` names what, in nl80211's words.
    case pairingUnavailable(missing: [String])
    /// A `NL80211_CMD_NAN_MATCH` for a cookie of no function this radio added.
    case matchForUnknownFunction(cookie: UInt64)

    public var description: String {
        switch self {
        case .unreadableFrame(let error):
            return "NAN function offload: the outgoing frame is not readable: \(error)"
        case .notCarried(let kind):
            return "NAN function offload cannot carry a \(kind): the driver's discovery engine sends only "
                + "publish, subscribe and follow-up functions (NL80211_CMD_ADD_NAN_FUNCTION)"
        case .serviceDescriptorCount(let count):
            return "NAN function offload: an SDF with \(count) Service Descriptor attributes; a function is exactly one"
        case .reservedServiceControlType(let instanceID):
            return "NAN function offload: instance \(instanceID)'s Service Descriptor has the reserved "
                + "Service Control type 3"
        case .serviceInfoTooLong(let instanceID, let octets):
            return "NAN function offload: instance \(instanceID)'s service info is \(octets) octets; "
                + "NL80211_NAN_FUNC_SERVICE_INFO holds at most 255"
        case .pairingUnavailable(let missing):
            return "NAN function offload: pairing (PASN Authentication frames) is refused on this wiphy: it lacks "
                + missing.joined(separator: "; ")
        case .matchForUnknownFunction(let cookie):
            return "NL80211_CMD_NAN_MATCH for cookie \(cookie), which is no function this radio added"
        }
    }
}

// MARK: - NL80211OffloadNotice

/// What the NAN function offload path tells the operator besides errors: functions it added
/// for a role instance (with what the function could not carry), functions it deleted, and
/// functions the driver ended on its own (`NL80211_CMD_DEL_NAN_FUNCTION` as an event,
/// `cfg80211_nan_func_terminated`).
public enum NL80211OffloadNotice: Hashable, Sendable {
    /// `ADD_NAN_FUNCTION` succeeded for the role instance `instanceID` of station `owner`.
    case functionAdded(owner: String, instanceID: UInt8, cookie: UInt64, lost: [String])
    /// This radio deleted the function: its content changed, the role stopped sending it, or
    /// the station left the air.
    case functionDeleted(owner: String, instanceID: UInt8, cookie: UInt64, why: String)
    /// The driver ended the function: `reason` is an `enum nl80211_nan_func_term_reason`
    /// (0 user request, 1 TTL expired, 2 error); `instanceID` is the driver's.
    case functionTerminated(cookie: UInt64, instanceID: UInt8, reason: UInt8)
}
