/// An error that means the bench, not the accessory, broke: a socket that cannot be bound, a child
/// process that does not start, a disk that is full. A test body that throws one gets the verdict
/// `error` with origin `environment`, and the run exits 3 instead of 1. Conform the integrator's own
/// error types to it where that is what they mean.
public protocol EnvironmentError: Error {}

/// An environment error with a message.
public struct EnvironmentFailure: EnvironmentError, Hashable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
