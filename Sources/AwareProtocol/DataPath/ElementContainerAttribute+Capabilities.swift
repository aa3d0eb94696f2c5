import AwareWire

extension ElementContainerAttribute {
    /// HT Capabilities element ID (IEEE 802.11-2020 9.4.2.55).
    public static let htCapabilitiesElementID: UInt8 = 45
    /// VHT Capabilities element ID (IEEE 802.11-2020 9.4.2.157).
    public static let vhtCapabilitiesElementID: UInt8 = 191

    /// The bench's radio in the Element Container of its Data Path Request and Response, as hostap
    /// sends it there (`nan_ndl_add_elem_container_attr`, Map ID octet 0): hostap configures the
    /// peer's station from the HT Capabilities it finds (`wpas_nan_configure_nmi_sta_capa`) and,
    /// when there are none, tears the new data path down without a Termination.
    ///
    /// One spatial stream, 20/40 MHz HT and 80 MHz VHT, short guard intervals, MCS 0-7 (HT) and
    /// 0-9 (VHT): the radio of a small accessory, and no more than the schedules here offer.
    public static let benchCapabilities = ElementContainerAttribute(
        mapID: nil,
        elements: [
            InformationElement(id: htCapabilitiesElementID, body: htCapabilities),
            InformationElement(id: vhtCapabilitiesElementID, body: vhtCapabilities),
        ]
    )

    /// 26 octets (9.4.2.55.1): HT Capability Information 0x006E (b1 20/40 MHz, b2-3 SM Power Save
    /// disabled, b5 and b6 short GI for 20 and 40 MHz), A-MPDU Parameters 0x03 (65,535 octets, no
    /// spacing restriction), Supported MCS Set with Rx MCS 0-7 and b96 Tx MCS Set Defined, then
    /// zero HT Extended, Transmit Beamforming and ASEL capabilities.
    static let htCapabilities: [UInt8] =
        [0x6E, 0x00, 0x03] + [0xFF] + [UInt8](repeating: 0, count: 9) + [0x00, 0x00] + [0x01, 0x00, 0x00, 0x00]
        + [0x00, 0x00] + [0x00, 0x00, 0x00, 0x00] + [0x00]

    /// 12 octets (9.4.2.157): VHT Capabilities Information 0x00000020 (3,895-octet MPDUs, 80 MHz,
    /// b5 short GI for 80 MHz), Rx and Tx VHT-MCS Maps 0xFFFE (one stream, MCS 0-9), no highest
    /// rates given.
    static let vhtCapabilities: [UInt8] = [0x20, 0x00, 0x00, 0x00, 0xFE, 0xFF, 0x00, 0x00, 0xFE, 0xFF, 0x00, 0x00]

    /// The HT Capabilities element's body, when the container holds one of 26 octets.
    public var htCapabilitiesBody: [UInt8]? {
        elements.first { $0.id == Self.htCapabilitiesElementID && $0.body.count == 26 }?.body
    }
}
