import AwareWire

/// What a publish says about pairing: the DCEA Pairing Setup / NPK-NIK Caching bits and the
/// bootstrapping methods of an NPBA Advertise (nan-wire-reference.md 2.16, 2.18, 3.3) — what the
/// phone reads from an accessory (apple-peer-model.md 3: the accessory advertises PIN display).
public struct PairingAdvertisement: Hashable, Sendable {
    public var pairingSetupEnabled: Bool
    public var npkNIKCachingEnabled: Bool
    /// Empty: no NPBA is sent (hostap adds it only when the bitmap is non-zero, 3.3).
    public var bootstrappingMethods: BootstrappingMethods

    public init(
        pairingSetupEnabled: Bool = true,
        npkNIKCachingEnabled: Bool = true,
        bootstrappingMethods: BootstrappingMethods = .pinCodeDisplay
    ) {
        self.pairingSetupEnabled = pairingSetupEnabled
        self.npkNIKCachingEnabled = npkNIKCachingEnabled
        self.bootstrappingMethods = bootstrappingMethods
    }

    /// DCEA, then NPBA Advertise (Dialog Token 0, type Advertise, status Accepted) when any method is set.
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
        return attributes
    }
}
