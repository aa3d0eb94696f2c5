import Crypto

/// The ephemeral ECDH key pair of one PASN exchange (nan-wire-reference.md 3.4.1: "ECDH:
/// ephemeral key on the PASN group; DHss = x-coordinate of the shared point").
///
/// Plain ECDH on the NIST curves, so it runs on swift-crypto (BoringSSL's constant-time P-256 and
/// P-384), several times faster than the generic mbedTLS arithmetic SAE needs. The private scalar
/// still comes from the caller's generator, so a seed replays an exchange and tests can use a
/// recorded session's keys.
///
/// The public key goes on the wire as `0x02 || x` whatever the parity of y, as hostap sends it
/// (session README subtlety 3); DHss is unaffected because x(k·P) = x(k·(−P)).
public struct PASNEphemeralKeyPair: Sendable {
    public let curve: EllipticCurve
    /// The private scalar, big-endian, as long as a coordinate.
    public let privateKey: [UInt8]
    /// x || y of the public point.
    public let publicPoint: [UInt8]
    private let key: Key

    private enum Key: Sendable {
        case p256(P256.KeyAgreement.PrivateKey)
        case p384(P384.KeyAgreement.PrivateKey)
    }

    /// A key pair from a known private scalar in [1, r − 1] (known-answer tests).
    public init(curve: EllipticCurve, privateKey: [UInt8]) throws(CryptoError) {
        guard privateKey.count == curve.coordinateLength else {
            throw .invalidLength(field: "PASN private key", expected: curve.coordinateLength, actual: privateKey.count)
        }
        do {
            switch curve {
            case .p256:
                let key = try P256.KeyAgreement.PrivateKey(rawRepresentation: privateKey)
                self.key = .p256(key)
                publicPoint = Array(key.publicKey.rawRepresentation)
            case .p384:
                let key = try P384.KeyAgreement.PrivateKey(rawRepresentation: privateKey)
                self.key = .p384(key)
                publicPoint = Array(key.publicKey.rawRepresentation)
            }
        } catch {
            throw .scalarOutOfRange(field: "PASN private key", reason: "must be in [1, r − 1]")
        }
        self.curve = curve
        self.privateKey = privateKey
    }

    /// A fresh key pair with the private scalar drawn from `generator`.
    public init(curve: EllipticCurve, using generator: inout some RandomNumberGenerator) throws(CryptoError) {
        let order = try EllipticCurveGroup(curve).order
        let scalar = try BigNumber.random(from: BigNumber(1), below: order, using: &generator)
        try self.init(curve: curve, privateKey: try scalar.bytes(length: curve.coordinateLength))
    }

    /// The key as PASN Parameters carry it: `0x02 || x` (RFC 5480 compressed form, even y
    /// claimed).
    public var wireKey: [UInt8] { [0x02] + publicPoint.prefix(curve.coordinateLength) }

    /// DHss with the peer's SEC 1 key (0x02/0x03 compressed or 0x04 uncompressed). Refuses a
    /// key that is not a point of the curve, and one whose x equals ours (a reflected key).
    public func sharedSecret(peerKey: [UInt8]) throws(CryptoError) -> [UInt8] {
        let length = curve.coordinateLength
        guard let form = peerKey.first, peerKey.count == (form == 0x04 ? 1 + 2 * length : 1 + length),
            form == 0x02 || form == 0x03 || form == 0x04
        else {
            throw .invalidEncoding(field: "PASN peer key", reason: "not a SEC 1 point of \(length)-octet coordinates")
        }
        guard !ConstantTime.equals(Array(peerKey[1...length]), Array(publicPoint.prefix(length))) else {
            throw .invalidEncoding(field: "PASN peer key", reason: "equals our own public key")
        }
        do {
            let shared: SharedSecret
            switch key {
            case .p256(let own):
                let peer =
                    form == 0x04
                    ? try P256.KeyAgreement.PublicKey(x963Representation: peerKey)
                    : try P256.KeyAgreement.PublicKey(compressedRepresentation: peerKey)
                shared = try own.sharedSecretFromKeyAgreement(with: peer)
            case .p384(let own):
                let peer =
                    form == 0x04
                    ? try P384.KeyAgreement.PublicKey(x963Representation: peerKey)
                    : try P384.KeyAgreement.PublicKey(compressedRepresentation: peerKey)
                shared = try own.sharedSecretFromKeyAgreement(with: peer)
            }
            return shared.withUnsafeBytes { Array($0) }
        } catch {
            throw .pointNotOnCurve(curve: curve)
        }
    }
}
