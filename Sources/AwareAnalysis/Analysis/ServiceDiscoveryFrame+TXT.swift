import AwareWire

extension ServiceDiscoveryFrame {
    /// The DNS-SD TXT records the frame carries: the SDEA Service Info with the WFA OUI and
    /// Service Protocol Type 1 (Bonjour) (nan-wire-reference.md 2.5; apple-peer-model.md 1.6),
    /// each with the SDEA's Instance ID, or the error when its strings run past the field.
    var txtRecords: [(instanceID: UInt8, record: Result<DNSSDTXTRecord, WireError>)] {
        var records: [(instanceID: UInt8, record: Result<DNSSDTXTRecord, WireError>)] = []
        for case .serviceDescriptorExtension(let sdea) in attributes {
            guard let info = sdea.serviceInfo?.serviceSpecificInfo, info.protocolType == .bonjour else { continue }
            do {
                let record = try DNSSDTXTRecord(wireBytes: info.info, structure: "DNS-SD TXT record")
                records.append((sdea.instanceID, .success(record)))
            } catch {
                records.append((sdea.instanceID, .failure(error)))
            }
        }
        return records
    }

    /// The Service Descriptors of type Publish.
    var publishes: [ServiceDescriptorAttribute] {
        attributes.compactMap { if case .serviceDescriptor(let sda) = $0, sda.type == .publish { sda } else { nil } }
    }

    /// The DCEA, when the frame has one.
    var deviceCapabilityExtension: DeviceCapabilityExtensionAttribute? {
        for case .deviceCapabilityExtension(let dcea) in attributes { return dcea }
        return nil
    }

    /// The NPBAs the frame carries.
    var pairingBootstrapping: [PairingBootstrappingAttribute] {
        attributes.compactMap { if case .pairingBootstrapping(let npba) = $0 { npba } else { nil } }
    }

    /// The NIRA, when the frame has one.
    var identityResolution: IdentityResolutionAttribute? {
        for case .identityResolution(let nira) in attributes { return nira }
        return nil
    }
}
