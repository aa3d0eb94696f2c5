import AwareCrypto
import AwareWire

/// The parts of a received data path NAF the machines read (nan-wire-reference.md 4.1): the
/// NDP or NDPE attribute, the security attributes and the schedule attributes.
struct NDPMessage {
    let frame: NANActionFrame
    let common: NDPCommonFields
    let interfaceIdentifier: [UInt8]?
    /// The sender's service transport: NDPE Service Info, or NDP Specific Info read as NDPE
    /// TLVs (Android's placement, DataPathServiceInfo.swift).
    let serviceInfo: GenericServiceProtocol?
    let isExtension: Bool
    let cipherSuites: CipherSuiteInfoAttribute?
    let securityContext: SecurityContextInfoAttribute?
    let sharedKey: SharedKeyDescriptorAttribute?
    let availability: AvailabilityAttribute?
    /// Every NAN Availability attribute of the frame, in order: one per Map ID (2.7).
    let availabilities: [AvailabilityAttribute]
    let ndl: NDLAttribute?
    let qos: NDLQoSAttribute?
    /// The sender's Device Capability (2.6), when the NAF carries one.
    let deviceCapability: DeviceCapabilityAttribute?
    /// Every NDC attribute of the frame (2.8), in order.
    let ndcs: [NDCAttribute]

    /// nil when the frame carries neither NDP nor NDPE; a frame with both is read by its first.
    init?(_ frame: NANActionFrame) {
        var common: NDPCommonFields?
        var interfaceIdentifier: [UInt8]?
        var serviceInfo: GenericServiceProtocol?
        var isExtension = false
        var cipherSuites: CipherSuiteInfoAttribute?
        var securityContext: SecurityContextInfoAttribute?
        var sharedKey: SharedKeyDescriptorAttribute?
        var availabilities: [AvailabilityAttribute] = []
        var ndl: NDLAttribute?
        var qos: NDLQoSAttribute?
        var deviceCapability: DeviceCapabilityAttribute?
        var ndcs: [NDCAttribute] = []
        for attribute in frame.attributes {
            switch attribute {
            case .ndp(let ndp) where common == nil:
                common = ndp.common
                serviceInfo = ndp.genericServiceProtocol
            case .ndpExtension(let ndpe) where common == nil:
                common = ndpe.common
                interfaceIdentifier = ndpe.ipv6InterfaceIdentifier
                serviceInfo = ndpe.genericServiceProtocol
                isExtension = true
            case .cipherSuiteInfo(let value) where cipherSuites == nil: cipherSuites = value
            case .securityContextInfo(let value) where securityContext == nil: securityContext = value
            case .sharedKeyDescriptor(let value) where sharedKey == nil: sharedKey = value
            case .availability(let value): availabilities.append(value)
            case .ndl(let value) where ndl == nil: ndl = value
            case .ndlQoS(let value) where qos == nil: qos = value
            case .deviceCapability(let value) where deviceCapability == nil: deviceCapability = value
            case .ndc(let value): ndcs.append(value)
            default: continue
            }
        }
        guard let common else { return nil }
        self.frame = frame
        self.common = common
        self.interfaceIdentifier = interfaceIdentifier
        self.serviceInfo = serviceInfo
        self.isExtension = isExtension
        self.cipherSuites = cipherSuites
        self.securityContext = securityContext
        self.sharedKey = sharedKey
        self.availability = availabilities.first
        self.availabilities = availabilities
        self.ndl = ndl
        self.qos = qos
        self.deviceCapability = deviceCapability
        self.ndcs = ndcs
    }

    /// The Selected NDC (2.8): the first NDC attribute with the Selected NDC bit and at least
    /// one schedule entry, which is what hostap takes from an NDL Response.
    var selectedNDC: NDCAttribute? {
        ndcs.first { $0.isSelected && !$0.scheduleEntries.isEmpty }
    }

    /// Whether the sender reads NDPE: its Device Capability says so (b3, 2.6), or, when the NAF
    /// carries none, it wrote NDPE itself.
    var senderReadsNDPE: Bool { deviceCapability?.ndpeAttributeSupported ?? isExtension }

    var securityPresent: Bool { common.ndpControl.contains(.securityPresent) }

    /// The NAF body from the Category octet, as sent (parse and write are byte-exact).
    var body: [UInt8] { frame.wireBytes }

    /// The key descriptor read with the suite's MIC length, not the guessed one (2.15).
    func keyDescriptor(suite: NANSecurityCipherSuite) -> RSNAKeyDescriptor? {
        guard let sharedKey else { return nil }
        var writer = WireWriter()
        sharedKey.write(to: &writer)
        var reader = WireReader(writer.bytes, structure: SharedKeyDescriptorAttribute.structureName)
        do throws(WireError) {
            let attribute = try SharedKeyDescriptorAttribute(from: &reader, micLayout: suite.keyMICLayout)
            try reader.expectEnd()
            return attribute.keyDescriptor
        } catch {
            return nil
        }
    }

    /// The body with the Key MIC zeroed, as the MIC is computed (4.2).
    func bodyWithMICZeroed(suite: NANSecurityCipherSuite) -> [UInt8]? {
        guard let sharedKey, var descriptor = keyDescriptor(suite: suite) else { return nil }
        descriptor.mic = [UInt8](repeating: 0, count: suite.micLength)
        var zeroed = frame
        zeroed.attributes = frame.attributes.map { attribute in
            guard case .sharedKeyDescriptor = attribute else { return attribute }
            return .sharedKeyDescriptor(
                SharedKeyDescriptorAttribute(publishID: sharedKey.publishID, keyDescriptor: descriptor)
            )
        }
        return zeroed.wireBytes
    }

    /// The first NDP cipher suite of the CSIA (CSID 1, 2, 7 or 8; the group suites 5 / 6 are
    /// not a data path suite, 4.2), as its raw CSID.
    var requestedCSID: UInt8? {
        let ndpSuites: Set<UInt8> = [1, 2, 3, 4, 7, 8]
        return cipherSuites?.cipherSuites.map(\.csid.rawValue).first { ndpSuites.contains($0) }
    }
}
