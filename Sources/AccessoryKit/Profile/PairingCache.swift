/// What the accessory keeps after pairing so the phone can reconnect without a PIN: the NPK for
/// pairing verification and the peer's NIK to resolve its NIRA (apple-peer-model.md 4, 5.6).
public struct PairingCache: Codable, Hashable, Sendable {
    public var npk: Bool
    public var nik: Bool
    /// How long a cached NIK stays valid; 0 keeps it until the pairing is removed.
    public var nikLifetimeSeconds: Int

    public init(npk: Bool = true, nik: Bool = true, nikLifetimeSeconds: Int = 0) {
        self.npk = npk
        self.nik = nik
        self.nikLifetimeSeconds = nikLifetimeSeconds
    }
}
