// AwareCrypto: SAE hash-to-element, the IEEE 802.11 KDF, PASN keys and MICs, the NAN key
// hierarchy, NIRA tags, AES key wrap and frame protection (docs/reference/architecture.md). Group and
// bignum arithmetic come from mbedTLS (CMbedCrypto); symmetric primitives from swift-crypto.
