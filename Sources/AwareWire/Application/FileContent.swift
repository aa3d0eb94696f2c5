import Crypto

/// The content of a served file, generated from its name and size so that a 700 MB clip never
/// has to exist: block i (counting from 0) is SHA-256(UTF-8 name || i as 8 octets big-endian),
/// 32 octets, and the file is blocks 0, 1, 2, ... concatenated and cut at `size` octets. The
/// counter has a fixed width, so no two (name, block) pairs hash the same input. Any range can be
/// produced on its own, which is what serving from an offset needs.
public struct FileContent: Hashable, Sendable {
    static let blockLength = 32

    public var name: String
    public var size: UInt64

    public init(name: String, size: UInt64) {
        self.name = name
        self.size = size
    }

    /// The octets at `offset..<offset + count`, cut at the end of the file.
    public func bytes(at offset: UInt64, count: Int) -> [UInt8] {
        guard offset < size, count > 0 else { return [] }
        let end = offset + min(UInt64(count), size - offset)
        let blockLength = UInt64(Self.blockLength)
        var out: [UInt8] = []
        out.reserveCapacity(Int(end - offset))
        var block = offset / blockLength
        while block * blockLength < end {
            let start = block * blockLength
            let octets = Self.block(name: name, index: block)
            let from = Int(max(offset, start) - start)
            let to = Int(min(end, start + blockLength) - start)
            out += octets[from..<to]
            block += 1
        }
        return out
    }

    /// SHA-256 of the whole file, computed a block at a time.
    public var sha256: [UInt8] {
        var digest = FileDigest()
        var offset: UInt64 = 0
        let step = 64 * Self.blockLength
        while offset < size {
            let part = bytes(at: offset, count: step)
            digest.update(part)
            offset += UInt64(part.count)
        }
        return digest.finalize()
    }

    static func block(name: String, index: UInt64) -> [UInt8] {
        var input = Array(name.utf8)
        for shift in stride(from: 56, through: 0, by: -8) {
            input.append(UInt8(truncatingIfNeeded: index >> UInt64(shift)))
        }
        return Array(SHA256.hash(data: input))
    }
}

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
