import AwareWire

extension PairingBootstrappingAttribute {
    /// nan-wire-reference.md 2.18: the methods field is reserved (0) unless Accepted.
    static func accepted(token: UInt8, methods: BootstrappingMethods) -> Self {
        Self(dialogToken: token, type: .response, status: .accepted, methods: methods)
    }

    static func rejected(token: UInt8, reasonCode: UInt8) -> Self {
        Self(dialogToken: token, type: .response, status: .rejected, reasonCode: reasonCode, methods: [])
    }

    /// As the hostap session's frame 5: Comeback After, the cookie, methods 0.
    static func comeback(token: UInt8, after: UInt16, cookie: [UInt8]) -> Self {
        Self(dialogToken: token, type: .response, status: .comeback, comebackAfter: after, cookie: cookie, methods: [])
    }
}
