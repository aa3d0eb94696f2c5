import Foundation

/// What a run was: the reports' header.
public struct RunMetadata: Hashable, Sendable {
    public var runID: String
    public var toolVersion: String
    public var baseSeed: UInt64
    public var target: String
    public var profilePath: String
    public var shard: Shard?
    public var jobs: Int
    public var iterations: Int
    public var only: [String]
    public var skip: [String]
    /// Where evidence goes.
    public var evidenceDirectory: String
    /// Whether every test keeps evidence (`--evidence`) or only failing ones.
    public var evidenceForEveryTest: Bool
    public var startedAt: Date
}
