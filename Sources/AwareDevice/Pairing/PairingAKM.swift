/// The AKM a pairing was set up with, which pairing verification reuses (nan-wire-reference.md 3.4, 3.7):
/// SAE (00-0F-AC:8) when the password was a PIN or passphrase, PASN (00-0F-AC:21) for opportunistic
/// pairing. The raw values are what `pairings.json` stores.
public enum PairingAKM: String, Hashable, Sendable, CaseIterable, Codable {
    case sae
    case pasn
}
