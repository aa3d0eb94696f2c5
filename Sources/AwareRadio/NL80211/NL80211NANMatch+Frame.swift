import AwareCore
import AwareWire

extension NL80211NANMatch {
    /// The SDF a role would have received had it run the discovery itself: a Service
    /// Descriptor built from the match, handed to the stations as a reception on the NAN
    /// function offload path (nan-wire-reference.md 1.1, 1.3, 2.4).
    ///
    /// * A1 is `localAddress` (the match is addressed to this device: a solicited Publish, a
    ///   Subscribe the driver already answered, or a Follow-up), A2 the peer
    ///   (`NL80211_ATTR_MAC`), A3 the NAN Network ID (the event names no cluster).
    /// * The SDA: `serviceID` (the event carries none; it is the local function's), Instance
    ///   ID = the peer's instance, Requestor Instance ID = `localInstanceID` (the role's own
    ///   instance, not the driver's), the Service Control type from the peer function's
    ///   `NL80211_NAN_FUNC_TYPE` (`cfg80211_nan_match_params.type`: PUBLISH, "we got a
    ///   discovery response"; SUBSCRIBE, "we replied to a subscriber"; FOLLOW_UP), and the
    ///   peer's service info, when there is any, as the SDA's Service Info.
    ///
    /// Throws for a function type outside `enum nl80211_nan_function_type`.
    public func serviceDiscoveryFrame(
        serviceID: ServiceID,
        localInstanceID: UInt8,
        localAddress: MACAddress
    ) throws(RadioError) -> [UInt8] {
        let type: ServiceControlType
        switch NL80211Constants.NANFunctionType(rawValue: functionType) {
        case .publish: type = .publish
        case .subscribe: type = .subscribe
        case .followUp: type = .followUp
        case nil:
            throw RadioError.invalidReply(
                "NL80211_CMD_NAN_MATCH: NL80211_NAN_FUNC_TYPE \(functionType) is not publish, subscribe or follow-up"
            )
        }
        let descriptor = ServiceDescriptorAttribute(
            serviceID: serviceID,
            instanceID: peerInstanceID,
            requestorInstanceID: localInstanceID,
            type: type,
            serviceInfo: serviceInfo.isEmpty ? nil : serviceInfo
        )
        let frame = ManagementFrame(
            header: ManagementHeader(
                frameControl: .management(.action),
                address1: localAddress,
                address2: peerAddress,
                address3: .nanNetworkID
            ),
            body: .serviceDiscovery(
                ServiceDiscoveryFrame(category: .publicAction, attributes: [.serviceDescriptor(descriptor)])
            )
        )
        return frame.wireBytes
    }
}
