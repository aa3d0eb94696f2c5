/// Known random values for one side of an exchange, so that tests can replay a recorded session
/// (hostap session A records each side's SAE rand and mask and its ECDH private key). A run
/// without them draws everything from the machine's seeded generator.
public struct PASNRandomness: Hashable, Sendable {
    public var saeRand: [UInt8]?
    public var saeMask: [UInt8]?
    public var ephemeralPrivateKey: [UInt8]

    public init(saeRand: [UInt8]? = nil, saeMask: [UInt8]? = nil, ephemeralPrivateKey: [UInt8]) {
        self.saeRand = saeRand
        self.saeMask = saeMask
        self.ephemeralPrivateKey = ephemeralPrivateKey
    }
}
