import AwareWire

/// What a publish says about pairing: the DCEA Pairing Setup / NPK-NIK Caching bits and the
/// bootstrapping methods of an NPBA Advertise (nan-wire-reference.md 2.16, 2.18, 3.3) — what the
/// phone reads from an accessory (apple-peer-model.md 3: the accessory advertises PIN display).
public struct PairingAdvertisement: Hashable, Sendable {
    public var pairingSetupEnabled: Bool
    public var npkNIKCachingEnabled: Bool
    /// Empty: no NPBA is sent (hostap adds it only when the bitmap is non-zero, 3.3).
    public var bootstrappingMethods: BootstrappingMethods
    /// The NIRA a device that keeps its keys advertises so that paired peers recognise it
    /// under any NMI (2.17, 3.3, 3.7).
    public var identityResolution: IdentityResolutionAttribute?

    public init(
        pairingSetupEnabled: Bool = true,
        npkNIKCachingEnabled: Bool = true,
        bootstrappingMethods: BootstrappingMethods = .pinCodeDisplay,
        identityResolution: IdentityResolutionAttribute? = nil
    ) {
        self.pairingSetupEnabled = pairingSetupEnabled
        self.npkNIKCachingEnabled = npkNIKCachingEnabled
        self.bootstrappingMethods = bootstrappingMethods
        self.identityResolution = identityResolution
    }

    /// DCEA, then NPBA Advertise (Dialog Token 0, type Advertise, status Accepted) when any method
    /// is set, then the NIRA (hostap's order in session A frame 1).
    var attributes: [NANAttribute] {
        var attributes: [NANAttribute] = [
            .deviceCapabilityExtension(
                DeviceCapabilityExtensionAttribute(
                    pairingSetupEnabled: pairingSetupEnabled,
                    npkNIKCachingEnabled: npkNIKCachingEnabled
                )
            )
        ]
        if !bootstrappingMethods.isEmpty {
            attributes.append(
                .pairingBootstrapping(
                    PairingBootstrappingAttribute(
                        dialogToken: 0,
                        type: .advertise,
                        status: .accepted,
                        methods: bootstrappingMethods
                    )
                )
            )
        }
        if let identityResolution { attributes.append(.identityResolution(identityResolution)) }
        return attributes
    }
}
