import AwareCore
import AwareWire

/// A failed expectation: what went wrong, where in the test, and when on the test's clock.
public struct RecordedFailure: Hashable, Sendable {
    public var message: String
    /// `DiscoveryTests.swift:42` (module-relative, so the same on every machine).
    public var location: String
    public var time: Instant

    public init(message: String, location: String, time: Instant) {
        self.message = message
        self.location = location
        self.time = time
    }
}
