import CMbedCrypto

/// The random source `mbedtls_ecp_mul` wants for blinding: HMAC_DRBG (SHA-256) seeded from a
/// fixed string, created fresh for every multiplication.
///
/// Why a fixed seed is acceptable: mbedTLS uses this randomness only to randomise the
/// projective representation of intermediate points (a side-channel countermeasure); the
/// affine result is the same for any blinding values, so correctness does not depend on it.
/// What is given up is that countermeasure against an observer who can time or probe this
/// process, which an emulator running test keys does not need (mbedTLS's own `f_rng == NULL`
/// fallback is likewise deterministic, seeded from the scalar). What is gained: AwareCrypto
/// draws no ambient randomness, so runs replay bit for bit from a seed (docs/reference/architecture.md, "The sans-I/O core").
/// Without `f_entropy` HMAC_DRBG never reseeds, so it cannot fail mid-run.
final class BlindingRandom {
    private static let personalization = Array("AwareBench EC blinding, HMAC_DRBG-SHA-256".utf8)
    let storage: UnsafeMutablePointer<mbedtls_hmac_drbg_context>

    init() throws(CryptoError) {
        storage = .allocate(capacity: 1)
        mbedtls_hmac_drbg_init(storage)
        let seed = Self.personalization
        let code = seed.withUnsafeBufferPointer { buffer in
            mbedtls_hmac_drbg_seed_buf(
                storage,
                mbedtls_md_info_from_type(MBEDTLS_MD_SHA256),
                buffer.baseAddress,
                buffer.count
            )
        }
        try MbedTLSStatus.check(code, "mbedtls_hmac_drbg_seed_buf")
    }

    deinit {
        mbedtls_hmac_drbg_free(storage)
        storage.deallocate()
    }
}
