import AwareRadio
import AwareWire

/// An accessory someone else started on a socket air (`accessory-emu --air socket:PATH`, or
/// firmware built for the host that speaks docs/socket-air.md). The runner cannot restart or
/// reconfigure it, so tests that need either are skipped with that reason.
public struct SocketTarget: AccessoryTarget {
    public let path: String
    public let capabilities: TargetCapabilities

    public init(path: String, profile: ProfileFacts) {
        self.path = path
        capabilities = TargetCapabilities(
            target: "socket:\(path)",
            profile: profile,
            restart: .unavailable(reason: "the accessory on socket:\(path) was started outside the runner"),
            reconfigure: .unavailable(reason: "the accessory on socket:\(path) was started outside the runner")
        )
    }

    public var name: String { "socket:\(path)" }
    public var clock: TestClock { .wall }

    public func openSession(_ request: SessionRequest) throws -> any TargetSession {
        guard request.variant == nil, request.faults.isEmpty else {
            throw TargetError("socket:\(path) cannot change the accessory's profile or faults")
        }
        return try WallClockSession(path: path, rssiDBm: request.linkRSSIDBm)
    }
}
