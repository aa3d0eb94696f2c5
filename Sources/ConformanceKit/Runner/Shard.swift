/// `--shard I/N`: this run takes every N-th test of the sorted selection, starting with the I-th
/// (I counts from 1). Test k (0-based, in catalogue order) belongs to shard `k % N + 1`, so the N
/// shards together run every selected test exactly once, and assignment depends only on the selection.
public struct Shard: Hashable, Sendable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    public init(index: Int, count: Int) throws(RunSetupError) {
        guard count >= 1, (1...count).contains(index) else {
            throw .invalidShard("\(index)/\(count)")
        }
        self.index = index
        self.count = count
    }

    /// Parses `I/N`.
    public init(_ text: String) throws(RunSetupError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw .invalidShard(text)
        }
        try self.init(index: index, count: count)
    }

    public func owns(position: Int) -> Bool { position % count + 1 == index }

    public var description: String { "\(index)/\(count)" }
}
