/// How a pairing was authenticated: SAE with the PIN as password, or PASN that reused an
/// earlier pairing (nan-wire-reference.md 3.4-3.7). The raw values are what `pairings.json` stores.
public enum PairingAKM: String, Hashable, Sendable, CaseIterable, Codable {
    case sae
    case pasn
}
