/// One side of an SAE exchange over a known PWE (IEEE 802.11-2020 12.4.5): commit, process the
/// peer's commit into keys, then confirm and verify the peer's confirm.
///
/// A value type holding bytes: the mbedTLS objects are rebuilt for each step (as
/// `EllipticCurve+Arithmetic.swift` does), so a session can be copied and sent between tasks.
/// Randomness is injected (`commit(rand:mask:)` or a caller's generator) so that runs replay
/// from a seed and tests can use a transcript's values.
public struct SAESession: Sendable {
    public let curve: EllipticCurve
    /// PWE as x || y.
    public let pwe: [UInt8]
    public private(set) var ownCommit: SAECommit?
    public private(set) var peerCommit: SAECommit?
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
    public mutating func commit(rand: [UInt8], mask: [UInt8]) throws(SAEError) -> SAECommit {
        let commit = try wrap { () throws(CryptoError) -> Result<SAECommit, SAEError> in
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
            return .success(SAECommit(scalar: try scalar.bytes(length: length), element: try element.coordinates()))
        }
        ownCommit = commit
        self.rand = rand
        peerCommit = nil
        keys = nil
        return commit
    }

    /// Commits with rand and mask drawn from `generator`, each uniformly from [2, r − 1],
    /// drawing again while (rand + mask) mod r ≤ 1 (IEEE 802.11-2020 12.4.5.3).
    public mutating func commit(using generator: inout some RandomNumberGenerator) throws(SAEError) -> SAECommit {
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
        peerCommit = SAECommit(scalar: peerScalar, element: peerElement)
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
        _ first: SAECommit,
        _ second: SAECommit
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
