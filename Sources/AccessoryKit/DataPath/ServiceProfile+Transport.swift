import AwareDevice
import AwareWire

extension ServiceProfile {
    /// The port the service's application listens on over a data path: the profile's
    /// `datapath.port`, else ``AppPorts/defaultService``.
    var dataPathPort: UInt16 { UInt16(clamping: datapath?.port ?? Int(AppPorts.defaultService)) }

    /// What the accessory's Data Path Response names as this service's transport: its port and
    /// the protocol its name's suffix names (`._udp` 17, `._tcp` 6; RFC 6763 7: the suffix names
    /// the transport), in Android's layout (``GenericServiceProtocol/init(transportPort:transportProtocol:)``).
    /// nil under the `ndp-no-transport-info` fault; `ndp-wrong-transport-protocol` names the
    /// other protocol (TCP for a `._udp` service).
    func transportInfo(faults: Set<AccessoryFault>) -> GenericServiceProtocol? {
        guard !faults.contains(.noTransportInfo) else { return nil }
        var transport = try? ServiceName(name).transportProtocol
        if faults.contains(.wrongTransportProtocol) { transport = transport == .tcp ? .udp : .tcp }
        return GenericServiceProtocol(transportPort: dataPathPort, transportProtocol: transport?.ipProtocolNumber)
    }
}
