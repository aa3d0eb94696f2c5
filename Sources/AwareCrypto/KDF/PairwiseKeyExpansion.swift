/// The infrastructure 4-way-handshake PTK with a KDK (IEEE Std 802.11-2024 12.7.1.3, Annex
/// J.13 "KDK without PASN"): addresses and nonces enter in ascending order, so both ends derive
/// the same keys whoever they are.
public enum PairwiseKeyExpansion {
    public struct Keys: Hashable, Sendable {
        public let kck: [UInt8]
        public let kek: [UInt8]
        public let tk: [UInt8]
        public let kdk: [UInt8]
    }

    /// SHA-256 PTK with KCK 16, KEK 16, TK `tkLength`, KDK `kdkLength` octets.
    public static func derive(
        pmk: [UInt8],
        authenticatorAddress: [UInt8],
        supplicantAddress: [UInt8],
        aNonce: [UInt8],
        sNonce: [UInt8],
        tkLength: Int = 16,
        kdkLength: Int = 32
    ) throws(KeyDerivationError) -> Keys {
        try KeyDerivationError.requireLength(authenticatorAddress, 6, "AA")
        try KeyDerivationError.requireLength(supplicantAddress, 6, "SPA")
        try KeyDerivationError.requireLength(aNonce, 32, "ANonce")
        try KeyDerivationError.requireLength(sNonce, 32, "SNonce")
        let addressesInOrder =
            authenticatorAddress.lexicographicallyPrecedes(supplicantAddress)
            ? authenticatorAddress + supplicantAddress : supplicantAddress + authenticatorAddress
        let noncesInOrder = aNonce.lexicographicallyPrecedes(sNonce) ? aNonce + sNonce : sNonce + aNonce
        let ptk = try IEEE80211KDF.derive(
            hash: .sha256,
            key: pmk,
            label: "Pairwise key expansion",
            context: addressesInOrder + noncesInOrder,
            length: 32 + tkLength + kdkLength
        )
        return Keys(
            kck: Array(ptk[0..<16]),
            kek: Array(ptk[16..<32]),
            tk: Array(ptk[32..<(32 + tkLength)]),
            kdk: Array(ptk[(32 + tkLength)...])
        )
    }
}
