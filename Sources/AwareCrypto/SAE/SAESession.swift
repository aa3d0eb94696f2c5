/// One side of an SAE exchange over a known PWE (IEEE 802.11-2020 12.4.5): commit, process the
/// peer's commit into keys, then confirm and verify the peer's confirm.
///
/// A value type holding bytes: the mbedTLS objects are rebuilt for each step (as
/// the byte-level `EllipticCurve` functions do), so a session can be copied and sent between tasks.
/// Randomness is injected (`commit(rand:mask:)` or a caller's generator) so that runs replay
/// from a seed and tests can use a transcript's values.
public struct SAESession: Sendable {
    public let curve: EllipticCurve
    /// PWE as x || y.
    public let pwe: [UInt8]
    public private(set) var ownCommit: SAECommitValues?
    public private(set) var peerCommit: SAECommitValues?
    public private(set) var keys: SAEKeys?
    private var rand: [UInt8]?

    /// A session over `pwe` (x || y), which is validated.
    public init(curve: EllipticCurve, pwe: [UInt8]) throws(SAEError) {
        do { try curve.validate(point: pwe) } catch { throw .crypto(error) }
        self.curve = curve
        self.pwe = pwe
    }

    /// A session for `password` between the stations `ownAddress` and `peerAddress` (the NMIs
    /// for NAN pairing, whose SSID is the default).
    public init(
        curve: EllipticCurve,
        password: [UInt8],
        ssid: [UInt8] = SAEPasswordElement.nanPairingSSID,
        identifier: [UInt8]? = nil,
        ownAddress: [UInt8],
        peerAddress: [UInt8]
    ) throws(SAEError) {
        let pwe: [UInt8]
        do {
            let element = try SAEPasswordElement.derive(
                group: curve,
                password: password,
                ssid: ssid,
                identifier: identifier
            )
            pwe = try SAE.pwe(pt: element.pt, group: curve, address1: ownAddress, address2: peerAddress)
        } catch {
            throw .crypto(error)
        }
        try self.init(curve: curve, pwe: pwe)
    }

    /// Commits with the given rand and mask (big-endian, as long as a scalar, each in (1, r)):
    /// scalar = (rand + mask) mod r, element = −(mask · PWE). The standard draws them again
    /// when the scalar is not greater than 1; with injected values that is an error instead.
    public mutating func commit(rand: [UInt8], mask: [UInt8]) throws(SAEError) -> SAECommitValues {
        let commit = try wrap { () throws(CryptoError) -> Result<SAECommitValues, SAEError> in
            let group = try EllipticCurveGroup(curve)
            let length = curve.coordinateLength
            let one = BigNumber(1)
            var values: [BigNumber] = []
            for (name, bytes) in [("rand", rand), ("mask", mask)] {
                guard bytes.count == length else {
                    return .failure(.invalidRandom(reason: "\(name) must be \(length) octets, got \(bytes.count)"))
                }
                let value = try BigNumber(bytes: bytes)
                guard value > one, value < group.order else {
                    return .failure(.invalidRandom(reason: "\(name) must be in (1, r)"))
                }
                values.append(value)
            }
            let scalar = try values[0].adding(values[1]).modulo(group.order)
            guard scalar > one else { return .failure(.invalidRandom(reason: "(rand + mask) mod r must exceed 1")) }
            let element = try EllipticCurvePoint(group: group, coordinates: pwe).multiplied(by: values[1]).negated()
            return .success(
                SAECommitValues(scalar: try scalar.bytes(length: length), element: try element.coordinates())
            )
        }
        ownCommit = commit
        self.rand = rand
        peerCommit = nil
        keys = nil
        return commit
    }

    /// Commits with rand and mask drawn from `generator`, each uniformly from [2, r − 1],
    /// drawing again while (rand + mask) mod r ≤ 1 (IEEE 802.11-2020 12.4.5.3).
    public mutating func commit(using generator: inout some RandomNumberGenerator) throws(SAEError) -> SAECommitValues {
        let length = curve.coordinateLength
        while true {
            let rand: [UInt8]
            let mask: [UInt8]
            do {
                let order = try EllipticCurveGroup(curve).order
                rand = try BigNumber.random(from: BigNumber(2), below: order, using: &generator).bytes(length: length)
                mask = try BigNumber.random(from: BigNumber(2), below: order, using: &generator).bytes(length: length)
            } catch {
                throw .crypto(error)
            }
            do {
                return try commit(rand: rand, mask: mask)
            } catch .invalidRandom {
                continue
            }
        }
    }

    /// Processes the peer's commit and derives the keys. Refuses a scalar outside (1, r), an
    /// element that is not a point of the group, and a commit that reflects ours
    /// (IEEE 802.11-2020 12.4.5.4).
    @discardableResult
    public mutating func process(peerScalar: [UInt8], peerElement: [UInt8]) throws(SAEError) -> SAEKeys {
        guard let ownCommit, let rand else { throw .outOfOrder(operation: "process", needs: "commit") }
        let curve = curve
        let pwe = pwe
        let keys = try wrap { () throws(CryptoError) -> Result<SAEKeys, SAEError> in
            let group = try EllipticCurveGroup(curve)
            let length = curve.coordinateLength
            guard peerScalar.count == length else {
                return .failure(.invalidPeerScalar(reason: "must be \(length) octets, got \(peerScalar.count)"))
            }
            let scalar = try BigNumber(bytes: peerScalar)
            guard scalar > BigNumber(1), scalar < group.order else {
                return .failure(.invalidPeerScalar(reason: "must be in (1, r)"))
            }
            let element: EllipticCurvePoint
            do throws(CryptoError) {
                element = try EllipticCurvePoint(group: group, coordinates: peerElement)
            } catch {
                return .failure(.invalidPeerElement(error))
            }
            // hostap refuses only when both match; either alone already means the peer echoed
            // our message (a fresh honest commit matches with negligible probability), and
            // issue 4 asks for "an element or scalar equal to our own" to be refused.
            if peerScalar == ownCommit.scalar || peerElement == ownCommit.element {
                return .failure(.reflection)
            }
            let pweElement = try EllipticCurvePoint(group: group, coordinates: pwe)
            let shared = try pweElement.multiplied(by: scalar).adding(element)
            guard !shared.isInfinity else { return .failure(.sharedSecretAtInfinity) }
            let secret = try shared.multiplied(by: BigNumber(bytes: rand))
            guard !secret.isInfinity else { return .failure(.sharedSecretAtInfinity) }
            let k = try secret.x().bytes(length: length)
            let hash = SAEHash(curve)
            let keyseed = hash.hmac(key: [UInt8](repeating: 0, count: hash.length), k)
            let context = try BigNumber(bytes: ownCommit.scalar).adding(scalar).modulo(group.order)
                .bytes(length: length)
            // The length is a constant well inside the KDF's range; a refusal would be a bug here.
            let material: [UInt8]
            do {
                material = try IEEE80211KDF.derive(
                    hash: hash.kdfHash,
                    key: keyseed,
                    label: "SAE KCK and PMK",
                    context: context,
                    length: hash.length + SAEKeys.pmkLength
                )
            } catch {
                throw CryptoError.valueTooLarge(field: "SAE KCK and PMK", length: hash.length + SAEKeys.pmkLength)
            }
            return .success(
                SAEKeys(
                    k: k,
                    keyseed: keyseed,
                    kck: Array(material.prefix(hash.length)),
                    pmk: Array(material.suffix(SAEKeys.pmkLength)),
                    pmkid: Array(context.prefix(16))
                )
            )
        }
        peerCommit = SAECommitValues(scalar: peerScalar, element: peerElement)
        self.keys = keys
        return keys
    }

    /// Our confirm: HMAC-Hash(KCK, send-confirm (LE16) || scalar || element || peer-scalar ||
    /// peer-element) (IEEE 802.11-2020 12.4.5.5).
    public func confirm(sendConfirm: UInt16) throws(SAEError) -> [UInt8] {
        guard let ownCommit, let peerCommit, let keys else {
            throw .outOfOrder(operation: "confirm", needs: "process")
        }
        return Self.confirm(curve, keys.kck, sendConfirm, ownCommit, peerCommit)
    }

    /// Checks the peer's confirm, which covers the same values from its side: its
    /// send-confirm, its commit, then ours. Compared in constant time.
    public func verify(peerConfirm: [UInt8], peerSendConfirm: UInt16) throws(SAEError) {
        guard let ownCommit, let peerCommit, let keys else {
            throw .outOfOrder(operation: "verify", needs: "process")
        }
        let expected = Self.confirm(curve, keys.kck, peerSendConfirm, peerCommit, ownCommit)
        guard ConstantTime.equals(expected, peerConfirm) else { throw .confirmMismatch }
    }

    private static func confirm(
        _ curve: EllipticCurve,
        _ kck: [UInt8],
        _ sendConfirm: UInt16,
        _ first: SAECommitValues,
        _ second: SAECommitValues
    ) -> [UInt8] {
        SAEHash(curve).hmac(
            key: kck,
            [UInt8(truncatingIfNeeded: sendConfirm), UInt8(truncatingIfNeeded: sendConfirm >> 8)],
            first.scalar,
            first.element,
            second.scalar,
            second.element
        )
    }

    /// Runs group arithmetic whose `CryptoError`s are failures of our own values, and whose
    /// protocol refusals come back as `Result.failure`.
    private func wrap<T>(_ body: () throws(CryptoError) -> Result<T, SAEError>) throws(SAEError) -> T {
        let result: Result<T, SAEError>
        do { result = try body() } catch { throw .crypto(error) }
        return try result.get()
    }
}

/// The two values of an SAE Commit message (IEEE 802.11-2020 12.4.5.3): the commit-scalar
/// and the commit-element x || y, each coordinate and the scalar as long as the group's
/// prime (32 octets for group 19, 48 for group 20).
public struct SAECommitValues: Hashable, Sendable {
    public var scalar: [UInt8]
    public var element: [UInt8]

    public init(scalar: [UInt8], element: [UInt8]) {
        self.scalar = scalar
        self.element = element
    }
}

/// What an SAE exchange derives (IEEE 802.11-2020 12.4.5.4; nan-wire-reference.md 3.4):
///
///     k       = F(rand · (peer-scalar · PWE + PEER-ELEMENT)),  F = the x coordinate
///     keyseed = HMAC-Hash(0ⁿ, k)            (no rejected groups: the salt is all zero)
///     KCK || PMK = KDF-Hash-Length(keyseed, "SAE KCK and PMK", (scalar + peer-scalar) mod r)
///     PMKID   = L((scalar + peer-scalar) mod r, 0, 128)
///
/// KCK is as long as the hash; the PMK is 32 octets (AKM 00-0F-AC:8, not SAE-EXT-KEY). For
/// NAN pairing the PMK is the NPK. `k` and `keyseed` are kept for debugging captures.
public struct SAEKeys: Hashable, Sendable {
    public let k: [UInt8]
    public let keyseed: [UInt8]
    public let kck: [UInt8]
    public let pmk: [UInt8]
    public let pmkid: [UInt8]

    public static let pmkLength = 32
}

/// Why an SAE exchange refused a peer's message or could not go on.
public enum SAEError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The peer's commit-scalar is not in (1, r) (IEEE 802.11-2020 12.4.5.4), or is not as
    /// long as the group's scalars.
    case invalidPeerScalar(reason: String)
    /// The peer's commit-element is not a point of the group (wrong length, a coordinate ≥ p,
    /// off the curve).
    case invalidPeerElement(CryptoError)
    /// The peer sent back our own commit-scalar or commit-element: a reflection attack
    /// (IEEE 802.11-2020 12.4.5.4).
    case reflection
    /// rand or mask is not in (1, r), or their sum mod r is not greater than 1.
    case invalidRandom(reason: String)
    /// The shared point K is the point at infinity.
    case sharedSecretAtInfinity
    /// The peer's confirm does not match the one computed from the exchange: a wrong
    /// password, or a forged message.
    case confirmMismatch
    /// An operation was called before the step it needs (commit before process, process
    /// before confirm).
    case outOfOrder(operation: String, needs: String)
    /// The group arithmetic failed on our own values.
    case crypto(CryptoError)

    public var description: String {
        switch self {
        case .invalidPeerScalar(let reason): return "peer commit-scalar refused: \(reason)"
        case .invalidPeerElement(let error): return "peer commit-element refused: \(error)"
        case .reflection: return "peer commit reflects our own commit"
        case .invalidRandom(let reason): return "rand/mask refused: \(reason)"
        case .sharedSecretAtInfinity: return "the shared secret K is the point at infinity"
        case .confirmMismatch: return "SAE confirm mismatch"
        case .outOfOrder(let operation, let needs): return "\(operation) needs \(needs) first"
        case .crypto(let error): return error.description
        }
    }
}
