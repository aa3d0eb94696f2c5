import AwareCore
import AwareDevice
import AwareProtocol
import AwareRadio
import AwareWire
import Foundation

/// Why a phone session could not be opened: each is an environment problem (exit status 3 in
/// the commands), and the description says which and why.
public enum PhoneSessionError: Error, CustomStringConvertible {
    /// `--phone-state` could not be used (locked, unreadable, damaged).
    case phoneState(DeviceStateError)
    /// The target did not open a session (the accessory did not start, the air is gone).
    case target(name: String, reason: String)
    /// The phone could not join the session's air.
    case join(AirError?)

    public var description: String {
        switch self {
        case .phoneState(let error): "--phone-state: \(error)"
        case .target(let name, let reason): "\(name): \(reason)"
        case .join(let error): "the phone cannot join the air: \(error.map { "\($0)" } ?? "")"
        }
    }
}

/// What `pair`, `reconnect` and `perf` share: a session with the target, a phone with its store
/// on it, and the accessory found by subscribing. The commands print the outcome.
public struct PhoneSession {
    public let command: String
    public let target: any AccessoryTarget
    public let session: any TargetSession
    public let phone: Phone
    /// Held for the command's lifetime: the lock keeps a second runner off the same store.
    public let store: PairingStore?

    /// Opens the session and starts the phone.
    public static func open(
        command: String,
        target: any AccessoryTarget,
        seed: UInt64,
        phoneState: String?,
        faults: [String] = [],
        accessoryMode: PerformanceMode? = nil,
        reportsRejectedPublishes: Bool = false,
        tap: (any AirTap)? = nil,
        phone profile: PhoneProfile = .reference
    ) throws(PhoneSessionError) -> PhoneSession {
        var store: PairingStore?
        if let phoneState {
            do throws(DeviceStateError) {
                store = try PairingStore(path: phoneState)
            } catch {
                throw .phoneState(error)
            }
        }
        let session: any TargetSession
        do {
            session = try target.openSession(SessionRequest(seed: seed, faults: faults, accessoryMode: accessoryMode))
        } catch {
            throw .target(name: target.name, reason: "\(error)")
        }
        var phone: Phone?
        var joinError: AirError?
        session.perform {
            if let tap { session.air.addTap(tap) }
            let created = Phone(
                air: session.air,
                seed: seed,
                unsynchronized: session.onlyUnsynchronized,
                reportsRejectedPublishes: reportsRejectedPublishes,
                pairingStore: store,
                address: session.requiredPhoneAddress ?? Self.address(command: command, seed: seed, profile: profile),
                profile: profile
            )
            do throws(AirError) {
                try created.start()
            } catch {
                joinError = error
            }
            phone = created
        }
        guard let phone, joinError == nil else {
            session.close()
            throw .join(joinError)
        }
        return PhoneSession(command: command, target: target, session: session, phone: phone, store: store)
    }

    /// The phone's NMI: drawn from the seed, and for `reconnect` under a phone profile that
    /// randomizes it between connections (docs/phones.md) drawn again, so that `pair` and then
    /// `reconnect` with one seed come as the same phone under two NMIs, as such a phone does.
    static func address(command: String, seed: UInt64, profile: PhoneProfile) -> MACAddress {
        guard command == "reconnect", profile.addressBetweenConnections == .randomized else {
            return Phone.drawnAddress(seed: seed)
        }
        return Phone.drawnAddress(seed: seed ^ 0x5245_434F_4E4E)
    }

    /// Subscribes to `service` and waits for the first accessory that publishes it.
    public func find(service: String, timeout: Double) -> DiscoveryResult? {
        session.perform { phone.subscribe(SubscribeConfiguration(serviceName: service, mode: .active)) }
        var found: DiscoveryResult?
        _ = session.run(
            until: {
                found = phone.matchedResults(serviceName: service).last
                return found != nil
            },
            timeout: .seconds(timeout)
        )
        return found
    }

    /// Runs `start` on the phone and waits for the outcome.
    public func attempt(timeout: Double, _ start: @escaping (PhonePairing) -> Void) -> PairingOutcome? {
        session.perform { start(phone.pairing) }
        var outcome: PairingOutcome?
        _ = session.run(
            until: {
                outcome = phone.pairing.outcome
                return outcome != nil
            },
            timeout: .seconds(timeout)
        )
        // Let the accessory hear the last frame before the session closes.
        _ = session.run(until: { false }, timeout: .milliseconds(200))
        return outcome
    }

    /// Pairs with `found`, entering `pin` or else what the accessory's display shows for this phone.
    public func pair(with found: DiscoveryResult, pin: String?, timeout: Double) -> PairingOutcome {
        let phoneAddress = phone.address
        let session = session
        guard case .human(let range) = phone.profile.pinEntry else {
            let outcome = attempt(timeout: timeout) { phonePairing in
                phonePairing.pair(with: found, pin: .now { pin ?? session.displayedPINs(for: phoneAddress).last })
            }
            return outcome ?? .failed("timeout", "the pairing did not end in time", accessory: found.publisherAddress)
        }
        // The phone's person takes their time over the PIN (docs/phones.md), drawn from the seed.
        let phone = phone
        session.perform { phone.pairing.pair(with: found, pin: .later) }
        _ = session.run(
            until: { phone.pairing.outcome != nil || phone.pairing.awaitingPIN },
            timeout: .seconds(timeout)
        )
        let drawn = phoneAddress.octets.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        var generator = SeededGenerator(seed: TestSeed.derive(base: drawn, label: "person"))
        let seconds = Int64(Int.random(in: range, using: &generator))
        _ = session.run(until: { phone.pairing.outcome != nil }, timeout: .seconds(seconds))
        session.perform { phone.pairing.enterPIN(pin ?? session.displayedPINs(for: phoneAddress).last) }
        let outcome = attempt(timeout: timeout) { _ in }
        return outcome ?? .failed("timeout", "the pairing did not end in time", accessory: found.publisherAddress)
    }

    /// Pairs with `found`, reading the PIN with `pinCommand` (`--pin-command`) once the accessory
    /// has accepted PIN bootstrapping and shows it; the command runs on this thread while PASN
    /// waits. A command that fails or prints no PIN ends the attempt before frame 1 (nothing
    /// counts against the accessory's wrong-PIN limit) and is thrown: the bench's setup failed,
    /// not the accessory.
    public func pair(
        with found: DiscoveryResult,
        pinCommand: OperatorCommand,
        pinLength: Int?,
        timeout: Double
    ) throws(OperatorCommandError) -> PairingOutcome {
        let phone = phone
        session.perform { phone.pairing.pair(with: found, pin: .later) }
        _ = session.run(
            until: { phone.pairing.outcome != nil || phone.pairing.awaitingPIN },
            timeout: .seconds(timeout)
        )
        var awaiting = false
        session.perform { awaiting = phone.pairing.awaitingPIN }
        if awaiting {
            let environment = OperatorAccess.environment(
                accessory: found.publisherAddress.description,
                phone: phone.address.description,
                service: found.serviceName,
                test: nil
            )
            do throws(OperatorCommandError) {
                let pin = try pinCommand.readPIN(environment: environment, length: pinLength)
                session.perform { phone.pairing.enterPIN(pin) }
            } catch {
                session.perform { phone.pairing.enterPIN(nil, unavailable: error.description) }
                throw error
            }
        }
        let outcome = attempt(timeout: timeout) { _ in }
        return outcome ?? .failed("timeout", "the pairing did not end in time", accessory: found.publisherAddress)
    }

    /// Verifies the cached pairing with `found` (NIRA resolution, PASN verification).
    public func reconnect(with found: DiscoveryResult, timeout: Double) -> PairingOutcome {
        let outcome = attempt(timeout: timeout) { $0.reconnect(with: found) }
        return outcome
            ?? .failed("timeout", "the verification did not end in time", accessory: found.publisherAddress)
    }
}
