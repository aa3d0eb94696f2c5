import AwareDevice
import AwareProtocol
import AwareWire

extension DataPathSuite.Builder {
    /// `WA/NDP`: the service's transport, as the accessory's Data Path Response names it. An
    /// NDP responder names the port and protocol its service listens on in the Service Info TLV
    /// of its NDPE attribute, a Generic Service Protocol (OUI 50-6F-9A, type 2) with a Transport
    /// Port (sub-attribute 0x00, little-endian) and a Transport Protocol (0x01, the IANA number):
    /// Android's publisher writes exactly that and its subscriber connects to the port it reads
    /// (`WifiAwareDataPathStateManager.NetworkInformationData`, `WifiAwareNetworkInfo.getPort`).
    /// An NDP attribute (0x10) carries the same TLV in its NDP Specific Info, where Android's
    /// firmware puts it (not settled by a specification clause we can cite).
    func transport() throws -> [ConformanceTest] {
        [
            try test(
                "WA/NDP/BV-12",
                "The accessory's NDP Response names the service's transport port and protocol (NDPE Service Info, "
                    + "Generic Service Protocol), matching its publish",
                brokenBy: ["ndp-no-transport-info", "ndp-wrong-transport-protocol"],
                steps: [.echoTraffic],
                conditional: [ConditionalFaults(["tcp-port-closed"], when: .tcpService)]
            ) { context, suite in
                let (scenario, result) = try suite.openPaired(context)
                defer { scenario.finish() }
                // No fallback: the phone's app connects only to a port the response names.
                let (id, outcome) = try suite.request(context, scenario, result, fallsBackToServicePort: false)
                let link = try context.require(outcome.link, "a paired data path came up: got \(outcome)")
                let named = try suite.namedTransport(context, scenario, id)
                context.log(
                    "transport_info_received",
                    [
                        "service": .string(result.serviceName),
                        "transportPort": named.transportPort.map { .unsigned(UInt64($0)) } ?? .null,
                        "transportProtocol": named.transportProtocol.map { .unsigned(UInt64($0)) } ?? .null,
                        "subAttributes": .array(named.subAttributes.map { .unsigned(UInt64($0.id)) }),
                    ]
                )
                let suffix = try? ServiceName(result.serviceName).transportProtocol
                let number = try context.require(
                    named.transportProtocol,
                    "the Generic Service Protocol has a Transport Protocol sub-attribute (0x01)"
                )
                if let suffix {
                    context.expectEqual(
                        number,
                        suffix.ipProtocolNumber,
                        "the Transport Protocol (IANA number) for a service named \(result.serviceName): the "
                            + "\(suffix.rawValue.uppercased()) its `._\(suffix.rawValue)` suffix names (RFC 6763 7)"
                    )
                }
                let port = try context.require(
                    named.transportPort,
                    "the Generic Service Protocol has a Transport Port sub-attribute (0x00)"
                )
                context.expectEqual(
                    Int(port),
                    try suite.profilePort(context, service: result.serviceName),
                    "the Transport Port (read little-endian, as Android and ESP-IDF write it): the profile's "
                        + "datapath.port for \(result.serviceName)"
                )
                // The phone's app connects to the port it received, and only to it.
                let session = try context.require(
                    scenario.read { _ in scenario.phone.dataPaths.sessions[link.id] },
                    "the phone's app has a port to connect to: the one the response named"
                )
                context.expectEqual(session.servicePort, port, "the port the phone's app sends to")
                // The service answers there: a TCP connection, the telemetry, or the bench's ping.
                try suite.reach(context, scenario, link)
                let judged = try suite.reachService(context, scenario, link, port: port)
                context.log("service_reached", ["how": judged.map { .string($0) } ?? .null])
            }
        ]
    }

    /// The Generic Service Protocol of the accessory's Data Path Response: the Service Info TLV
    /// of its NDPE attribute, or the NDP Specific Info of an NDP attribute read as NDPE TLVs.
    /// Fails the test when there is none or it does not parse.
    func namedTransport(
        _ context: TestContext,
        _ scenario: Scenario,
        _ id: DataLinkID
    ) throws -> GenericServiceProtocol {
        let naf = try context.require(
            try accessoryFrames(context, scenario, id).first { $0.naf.subtype == .dataPathResponse }?.naf,
            "the accessory sent a Data Path Response"
        )
        var tlvs: [NDPExtensionTLV] = []
        var carrier = "NDPE attribute"
        for attribute in naf.attributes {
            if case .ndpExtension(let ndpe) = attribute {
                tlvs = ndpe.tlvs
                break
            }
            if case .ndp(let ndp) = attribute {
                carrier = "NDP Specific Info (read as NDPE TLVs)"
                tlvs = ndp.ndpSpecificInfoTLVs ?? []
                break
            }
        }
        var named: GenericServiceProtocol?
        for tlv in tlvs where named == nil {
            do throws(WireError) {
                named = try tlv.genericServiceProtocol()
            } catch {
                try context.require(
                    false,
                    "the Service Info TLV of the \(carrier) is a well-formed Generic Service Protocol: \(error)"
                )
            }
        }
        return try context.require(
            named,
            "the Data Path Response's \(carrier) carries a Service Info TLV (type 1) with OUI 50-6F-9A and "
                + "Service Protocol Type 2 (Generic Service Protocol) naming the service's transport"
        )
    }
}
