import Crypto

/// A running SHA-256 over a file received in pieces, so that a receiver can check a large
/// transfer without keeping a copy of it. A value: copying it forks the hash.
public struct FileDigest: Sendable {
    private var hash = SHA256()
    /// Octets hashed so far.
    public private(set) var count: UInt64 = 0

    public init() {}

    public mutating func update(_ octets: [UInt8]) {
        hash.update(data: octets)
        count += UInt64(octets.count)
    }

    /// The digest of everything so far; the running hash is left as it was.
    public func finalize() -> [UInt8] {
        Array(hash.finalize())
    }
}
