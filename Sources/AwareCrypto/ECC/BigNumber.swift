import CMbedCrypto

/// An arbitrary-precision integer, held by mbedTLS (`mbedtls_mpi`).
///
/// The `mbedtls_mpi` lives in heap storage owned by this object: mbedTLS allows its outputs to
/// alias its inputs, Swift's exclusivity rules do not allow that for a `var` struct, and a
/// stable address is what C wants (platform-notes.md 3.3). Every operation returns a new
/// number and never changes `self`, so a `BigNumber` behaves like a value once made.
///
/// Lifetime rule: a pointer to the storage is only used inside `withExtendedLifetime` of its
/// owner, so ARC cannot free the limbs while mbedTLS still reads them (the "temporary BN"
/// bug of platform-notes.md 3.3).
///
/// Not `Sendable`: mbedTLS reads are thread-safe, but nothing here needs to cross isolation
/// domains; pass bytes (`bytes(length:)`) between tasks instead.
public final class BigNumber {
    let storage: UnsafeMutablePointer<mbedtls_mpi>

    /// Zero.
    public init() {
        storage = .allocate(capacity: 1)
        mbedtls_mpi_init(storage)
    }

    deinit {
        mbedtls_mpi_free(storage)
        storage.deallocate()
    }

    /// A small integer. mbedTLS can only fail here by running out of memory for one limb,
    /// which Swift treats as fatal everywhere else too.
    public convenience init(_ value: Int) {
        self.init()
        let code = mbedtls_mpi_lset(storage, mbedtls_mpi_sint(value))
        precondition(code == 0, "mbedtls_mpi_lset: \(MbedTLSStatus.message(for: code))")
    }

    /// The unsigned big-endian integer `bytes` (any length; leading zeros allowed).
    public convenience init(bytes: some Collection<UInt8>) throws(CryptoError) {
        self.init()
        let octets = Array(bytes)
        let code = octets.withUnsafeBufferPointer { buffer in
            mbedtls_mpi_read_binary(storage, buffer.baseAddress, buffer.count)
        }
        try MbedTLSStatus.check(code, "mbedtls_mpi_read_binary")
    }

    /// A copy of `storage`-like mbedTLS memory owned elsewhere (a group parameter, a coordinate).
    convenience init(copying source: UnsafePointer<mbedtls_mpi>) throws(CryptoError) {
        self.init()
        try MbedTLSStatus.check(mbedtls_mpi_copy(storage, source), "mbedtls_mpi_copy")
    }

    /// The value as exactly `length` big-endian octets, zero-padded on the left.
    public func bytes(length: Int) throws(CryptoError) -> [UInt8] {
        guard length >= 0 else { throw CryptoError.valueTooLarge(field: "big number", length: length) }
        guard !isNegative else { throw CryptoError.negativeValue(field: "big number") }
        guard byteCount <= length else { throw CryptoError.valueTooLarge(field: "big number", length: length) }
        var out = [UInt8](repeating: 0, count: length)
        let code = withExtendedLifetime(self) {
            out.withUnsafeMutableBufferPointer { mbedtls_mpi_write_binary(storage, $0.baseAddress, length) }
        }
        try MbedTLSStatus.check(code, "mbedtls_mpi_write_binary")
        return out
    }

    /// The octets the magnitude needs (0 for zero).
    public var byteCount: Int { withExtendedLifetime(self) { mbedtls_mpi_size(storage) } }

    /// The bits the magnitude needs (0 for zero).
    public var bitLength: Int { withExtendedLifetime(self) { mbedtls_mpi_bitlen(storage) } }

    public var isZero: Bool { withExtendedLifetime(self) { mbedtls_mpi_cmp_int(storage, 0) == 0 } }

    public var isNegative: Bool { withExtendedLifetime(self) { mbedtls_mpi_cmp_int(storage, 0) < 0 } }

    /// Whether the lowest bit of the magnitude is set (the SEC 1 "ỹ" of a y coordinate).
    public var isOdd: Bool { withExtendedLifetime(self) { mbedtls_mpi_get_bit(storage, 0) == 1 } }

    /// -1, 0 or 1 as `self` is less than, equal to or greater than `other`.
    public func compare(to other: BigNumber) -> Int {
        Int(withExtendedLifetime((self, other)) { mbedtls_mpi_cmp_mpi(storage, other.storage) })
    }

    public func adding(_ other: BigNumber) throws(CryptoError) -> BigNumber {
        try combine(other, "mbedtls_mpi_add_mpi") { mbedtls_mpi_add_mpi($0, $1, $2) }
    }

    public func subtracting(_ other: BigNumber) throws(CryptoError) -> BigNumber {
        try combine(other, "mbedtls_mpi_sub_mpi") { mbedtls_mpi_sub_mpi($0, $1, $2) }
    }

    public func multiplied(by other: BigNumber) throws(CryptoError) -> BigNumber {
        try combine(other, "mbedtls_mpi_mul_mpi") { mbedtls_mpi_mul_mpi($0, $1, $2) }
    }

    /// `self` / 2^`count`, rounded towards zero.
    public func shiftedRight(by count: Int) throws(CryptoError) -> BigNumber {
        guard count >= 0 else { throw CryptoError.negativeValue(field: "shift count") }
        let result = try withExtendedLifetime(self) { () throws(CryptoError) -> BigNumber in
            try BigNumber(copying: storage)
        }
        try MbedTLSStatus.check(mbedtls_mpi_shift_r(result.storage, count), "mbedtls_mpi_shift_r")
        return result
    }

    /// The least non-negative residue of `self` modulo a positive `modulus`.
    public func modulo(_ modulus: BigNumber) throws(CryptoError) -> BigNumber {
        guard modulus.compare(to: BigNumber(0)) > 0 else { throw CryptoError.invalidModulus(operation: "modulo") }
        return try combine(modulus, "mbedtls_mpi_mod_mpi") { mbedtls_mpi_mod_mpi($0, $1, $2) }
    }

    /// The multiplicative inverse of `self` modulo `modulus` (> 1), in [1, modulus).
    public func inverse(modulo modulus: BigNumber) throws(CryptoError) -> BigNumber {
        guard modulus.compare(to: BigNumber(1)) > 0 else {
            throw CryptoError.invalidModulus(operation: "inverse modulo")
        }
        let result = BigNumber()
        let code = withExtendedLifetime((self, modulus, result)) {
            mbedtls_mpi_inv_mod(result.storage, storage, modulus.storage)
        }
        if code == MBEDTLS_ERR_MPI_NOT_ACCEPTABLE { throw CryptoError.notInvertible(operation: "inverse modulo") }
        try MbedTLSStatus.check(code, "mbedtls_mpi_inv_mod")
        return result
    }

    /// `self` ^ `exponent` mod `modulus`. mbedTLS's Montgomery ladder needs an odd positive
    /// modulus and a non-negative exponent; both field primes and both group orders are odd.
    public func power(_ exponent: BigNumber, modulo modulus: BigNumber) throws(CryptoError) -> BigNumber {
        guard modulus.compare(to: BigNumber(0)) > 0, modulus.isOdd else {
            throw CryptoError.invalidModulus(operation: "modular exponentiation (the modulus must be odd)")
        }
        guard !exponent.isNegative else { throw CryptoError.negativeValue(field: "exponent") }
        let result = BigNumber()
        let code = withExtendedLifetime((self, exponent, modulus, result)) {
            mbedtls_mpi_exp_mod(result.storage, storage, exponent.storage, modulus.storage, nil)
        }
        try MbedTLSStatus.check(code, "mbedtls_mpi_exp_mod")
        return result
    }

    /// A number drawn uniformly from [`lower`, `upper`) with octets from `generator`.
    ///
    /// The randomness comes from the caller so that protocol machines stay deterministic
    /// under a seeded generator (docs/reference/architecture.md, "The sans-I/O core"). mbedTLS does the
    /// rejection sampling (`mbedtls_mpi_random`, RFC 6979 3.3 style) and gives up after a
    /// bounded number of draws, which a stuck generator turns into `randomSourceExhausted`.
    public static func random(
        from lower: BigNumber,
        below upper: BigNumber,
        using generator: inout some RandomNumberGenerator
    ) throws(CryptoError) -> BigNumber {
        let width = try upper.subtracting(lower)
        guard width.compare(to: BigNumber(0)) > 0 else { throw CryptoError.emptyRange(operation: "random number") }
        let drawn = BigNumber()
        func fill(_ out: UnsafeMutablePointer<UInt8>, _ count: Int) {
            var filled = 0
            while filled < count {
                var word = generator.next()
                for _ in 0..<min(8, count - filled) {
                    out[filled] = UInt8(truncatingIfNeeded: word)
                    word >>= 8
                    filled += 1
                }
            }
        }
        let code = withoutActuallyEscaping(
            fill,
            do: { escapableFill in
                var source = RandomFill(fill: escapableFill)
                return withUnsafeMutablePointer(to: &source) { context in
                    withExtendedLifetime((drawn, width)) {
                        mbedtls_mpi_random(
                            drawn.storage,
                            0,
                            width.storage,
                            { context, out, count in
                                guard let context, let out else { return MBEDTLS_ERR_MPI_BAD_INPUT_DATA }
                                context.assumingMemoryBound(to: RandomFill.self).pointee.fill(out, count)
                                return 0
                            },
                            context
                        )
                    }
                }
            }
        )
        if code == MBEDTLS_ERR_MPI_NOT_ACCEPTABLE {
            throw CryptoError.randomSourceExhausted(operation: "random number")
        }
        try MbedTLSStatus.check(code, "mbedtls_mpi_random")
        return try drawn.adding(lower)
    }

    private func combine(
        _ other: BigNumber,
        _ function: String,
        _ operation: (
            UnsafeMutablePointer<mbedtls_mpi>, UnsafePointer<mbedtls_mpi>, UnsafePointer<mbedtls_mpi>
        ) -> Int32
    ) throws(CryptoError) -> BigNumber {
        let result = BigNumber()
        let code = withExtendedLifetime((self, other, result)) { operation(result.storage, storage, other.storage) }
        try MbedTLSStatus.check(code, function)
        return result
    }
}

/// The caller's generator, reachable from mbedTLS's `f_rng` C callback through its context
/// pointer (a C function pointer cannot capture).
private struct RandomFill {
    var fill: (UnsafeMutablePointer<UInt8>, Int) -> Void
}

extension BigNumber: Comparable {
    public static func == (lhs: BigNumber, rhs: BigNumber) -> Bool { lhs.compare(to: rhs) == 0 }
    public static func < (lhs: BigNumber, rhs: BigNumber) -> Bool { lhs.compare(to: rhs) < 0 }
}

extension BigNumber: CustomStringConvertible {
    /// Lower-case hex of the magnitude, with a sign for negative numbers.
    public var description: String {
        let magnitude = isNegative ? ((try? BigNumber(0).subtracting(self)) ?? BigNumber(0)) : self
        let octets = (try? magnitude.bytes(length: max(magnitude.byteCount, 1))) ?? []
        let digits = Array("0123456789abcdef")
        return (isNegative ? "-" : "") + String(octets.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] })
    }
}
