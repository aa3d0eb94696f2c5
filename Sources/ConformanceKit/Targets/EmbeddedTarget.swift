import AwareCore
import AwareRadio
import AwareWire
import Foundation

/// An accessory the runner builds in its own process. ConformanceKit never imports the
/// accessory's implementation: the `aware-conform` executable supplies a factory.
public protocol EmbeddedAccessory: AnyObject {
    var address: MACAddress { get }
    func start() throws
    func stop()
    func updateServiceInfo(service: String, txt: [String: String]) throws
    /// Receives each accessory event as a JSON line.
    var eventHandler: ((String) -> Void)? { get set }
    /// Receives each PIN the accessory's display shows, with the phone it is for.
    var pinDisplayHandler: ((String, MACAddress) -> Void)? { get set }
    /// Stops and starts again with the state it keeps, under `newAddress` if given.
    func restart(newAddress: MACAddress?) throws
    /// Clears every pairing and the identity, then starts again.
    func factoryReset() throws
    /// Enters the PIN a pairing the accessory started waits for; false when none waits.
    func enterPIN(_ pin: String) -> Bool
}

/// Builds an accessory from a profile document and a session request, on `air`.
public typealias EmbeddedAccessoryFactory =
    @Sendable (_ profile: Data, _ request: SessionRequest, _ air: any Air) throws -> any EmbeddedAccessory

/// The default target: the accessory runs in-process on a simulated air with virtual time,
/// so a 60-second test takes milliseconds and a seed replays it exactly.
public struct EmbeddedTarget: AccessoryTarget {
    public let profileDocument: Data
    public let capabilities: TargetCapabilities
    let factory: EmbeddedAccessoryFactory
    /// Where the phone stands relative to the accessory (at the origin), in metres.
    public var phoneDistance: Double
    /// The PIN from `--pin` or `--pin-command` instead of the display (the accessory is the
    /// runner's own, so it needs no power switch or prompt).
    public var operatorAccess = OperatorAccess()

    public init(
        profileDocument: Data,
        profile: ProfileFacts,
        phoneDistance: Double = 2,
        factory: @escaping EmbeddedAccessoryFactory
    ) {
        self.profileDocument = profileDocument
        self.factory = factory
        self.phoneDistance = phoneDistance
        capabilities = TargetCapabilities(target: "embedded", profile: profile)
    }

    public var name: String { "embedded" }
    public var clock: TestClock { .virtual }

    public func openSession(_ request: SessionRequest) throws -> any TargetSession {
        var document = profileDocument
        if let variant = request.variant { document = try variant.apply(to: profileDocument) }
        let air = SimulatedAir(configuration: SimulatedAir.Configuration(seed: request.seed))
        let accessory = try factory(document, request, air)
        let session = SimulatedSession(air: air, accessory: accessory)
        try accessory.start()
        return session
    }
}

/// A session on the simulated air: time passes only while the test waits.
final class SimulatedSession: TargetSession {
    let simulatedAir: SimulatedAir
    let accessory: any EmbeddedAccessory
    private(set) var accessoryEvents: [String] = []
    private(set) var displayedPINs: [DisplayedPIN] = []

    init(air: SimulatedAir, accessory: any EmbeddedAccessory) {
        simulatedAir = air
        self.accessory = accessory
        accessory.eventHandler = { [weak self] line in self?.accessoryEvents.append(line) }
        accessory.pinDisplayHandler = { [weak self] pin, peer in
            self?.displayedPINs.append(DisplayedPIN(pin: pin, peer: peer))
        }
    }

    func restartAccessory(newAddress: MACAddress?) throws { try accessory.restart(newAddress: newAddress) }
    func factoryResetAccessory() throws { try accessory.factoryReset() }

    func enterPINOnAccessory(_ pin: String) throws {
        guard accessory.enterPIN(pin) else { throw TargetError("the accessory waits for no PIN") }
    }

    var entersPINOnAccessory: Bool { true }

    var air: any Air { simulatedAir }
    var accessoryAddress: MACAddress? { accessory.address }
    var now: Instant { simulatedAir.virtualScheduler.now }

    func perform(_ work: () -> Void) { work() }

    func run(until condition: @escaping () -> Bool, timeout: Interval) -> Bool {
        let scheduler = simulatedAir.virtualScheduler
        let deadline = scheduler.now + timeout
        while !condition() {
            guard let next = scheduler.nextEventTime, next <= deadline else {
                scheduler.run(until: deadline)
                return condition()
            }
            _ = scheduler.step()
        }
        return true
    }

    func updateServiceInfo(service: String, txt: [String: String]) throws {
        try accessory.updateServiceInfo(service: service, txt: txt)
    }

    func close() {
        accessory.stop()
    }
}
